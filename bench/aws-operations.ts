// Names the AWS operation of each request in the emulator's recording, so bench:e2e can say
// which calls a resource costs, not only how many. Read from the wire, never from the code
// under test: the query protocol's `Action` (STS, SNS, RDS), the JSON protocol's X-Amz-Target
// (SQS, DynamoDB), for S3's REST API the method, the path and the sub-resource in the query, and
// for Lambda's the method and the path.
import { lambdaOperation, s3Operation } from "../test/support/aws-proxy.ts";
import type { MotoRecordedRequest } from "../test/support/moto-recording.ts";

function header(r: MotoRecordedRequest, name: string): string | undefined {
  const key = Object.keys(r.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : r.headers[key];
}

/** The signing service from the Authorization header's credential scope (`.../s3/aws4_request`). */
function serviceOf(r: MotoRecordedRequest): string {
  return (
    /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\/aws4_request/.exec(header(r, "authorization") ?? "")?.[1] ?? "?"
  );
}

/** S3 REST: the bucket-level operations as the proxy tests name them, plus ListBuckets. */
function s3OperationOf(method: string, url: string): string {
  const u = new URL(url, "http://emulator");
  if (u.pathname === "/" && method === "GET") return "ListBuckets";
  return s3Operation({ method, path: `${u.pathname}${u.search}` }) ?? `${method} ${u.pathname}${u.search}`;
}

/** `s3:CreateBucket`, `sts:AssumeRole`, `sqs:CreateQueue`, ... */
export function operationOf(r: MotoRecordedRequest): string {
  const service = serviceOf(r);
  const action = r.params["Action"];
  if (action) return `${service}:${action}`;
  const target = header(r, "x-amz-target");
  if (target) return `${service}:${target.split(".").pop()}`;
  if (service === "s3") return `s3:${s3OperationOf(r.method, r.url)}`;
  const lambda =
    service === "lambda" ? lambdaOperation(r.method, new URL(r.url, "http://emulator").pathname) : undefined;
  if (lambda !== undefined) return `lambda:${lambda}`;
  // Unsigned: the harness's own calls to the emulator (moto-api), not the controller's.
  return `${service === "?" ? "unsigned" : service}:${r.method} ${new URL(r.url, "http://emulator").pathname}`;
}

/** Calls per operation divided by `per` (resources), largest first, STS included. */
export function perOperation(recording: readonly MotoRecordedRequest[], per: number): Record<string, number> {
  const counts = new Map<string, number>();
  for (const r of recording) {
    const op = operationOf(r);
    counts.set(op, (counts.get(op) ?? 0) + 1);
  }
  return Object.fromEntries(
    [...counts.entries()]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([op, n]) => [op, Number((n / per).toFixed(3))]),
  );
}
