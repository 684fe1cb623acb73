// A recording, fault-injecting HTTP proxy in front of the AWS emulator. Tests point the code
// under test at `proxy.endpoint` and then count and inspect what really went over the wire
// (never counters inside the code under test), or make the "AWS" side throttle, fail with
// 5xx, deny access or drop connections.
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

export interface RecordedRequest {
  /** performance.now() when the request arrived. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Form fields of a query-protocol call (STS): `Action`, `RoleArn`, `Tags.member.1.Key`, ... */
  readonly params: Readonly<Record<string, string>>;
  /** `AssumeRole`, `GetCallerIdentity`, `CreateQueue`, ... (form Action or X-Amz-Target). */
  readonly action: string | undefined;
  /** The access key that signed the request, from the Authorization header. */
  readonly accessKeyId: string | undefined;
  /** Name of the fault that answered instead of the emulator, if any. */
  readonly fault: string | undefined;
}

export type FaultResponse =
  | { readonly status: number; readonly code: string; readonly message: string }
  /**
   * Answer as AWS would where the emulator has no such call (S3 Express's directory buckets):
   * the test then checks what crossrole sent, and that it reads AWS's documented answer right.
   */
  | { readonly answer: { readonly status: number; readonly body?: string } }
  /** Close the connection without an answer (a network failure for the client). */
  | "reset"
  /**
   * Let the request reach the emulator, then close the connection instead of answering: AWS
   * did it, the client never heard (a timeout, a reset on the way back).
   */
  | "forward-then-reset"
  /** Let the request reach the emulator, then never answer: AWS did it; the client waits (and may die waiting). */
  | "forward-then-hang"
  /** Neither forward nor answer: the call stays in flight until the client gives up or dies. */
  | "hang"
  /**
   * Hold the request, then forward it when `until` resolves (and answer, if the client is still
   * there): a request AWS takes late, e.g. one that lands after the caller was killed. A rejected
   * `until` drops it unsent.
   */
  | { readonly holdUntil: Promise<unknown> }
  /** Forward after `delayMs`: a slow AWS. */
  | { readonly delayMs: number }
  /**
   * Let the request reach the emulator and answer with its body rewritten: AWS reporting a state
   * the emulator never shows (a table CREATING, an instance modifying).
   */
  | { readonly rewrite: (body: string) => string };

export interface Fault {
  readonly name: string;
  readonly match: (r: Omit<RecordedRequest, "fault">) => boolean;
  readonly respond: FaultResponse;
  /** Answer this many matching requests, then step aside (default: until removed). */
  readonly times?: number;
}

export interface AwsProxy {
  readonly endpoint: string;
  readonly requests: readonly RecordedRequest[];
  /** Requests with this action, in arrival order. */
  calls(action: string): RecordedRequest[];
  /** Adds a fault; the returned function removes it. */
  addFault(fault: Fault): () => void;
  clearFaults(): void;
  /** Forgets what was recorded so far. */
  clearRecording(): void;
  close(): Promise<void>;
}

/** The error body STS (query protocol) sends, so the SDK parses it as it would AWS's. */
export function queryErrorXml(code: string, message: string, status: number): string {
  const type = status >= 500 ? "Receiver" : "Sender";
  return (
    `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>${type}</Type>` +
    `<Code>${code}</Code><Message>${message}</Message></Error><RequestId>proxy-fault</RequestId></ErrorResponse>`
  );
}

function parseParams(headers: IncomingHttpHeaders, body: string, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  const query = path.includes("?") ? path.slice(path.indexOf("?") + 1) : "";
  for (const [k, v] of new URLSearchParams(query)) out[k] = v;
  if (String(headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(body)) out[k] = v;
  }
  return out;
}

export interface AwsProxyOptions {
  /**
   * Shifts every `<Expiration>` in STS answers by this many ms. The emulator stamps expiry in
   * real time; a test that moves an injected clock returns `clock.now() - Date.now()` here so
   * credentials issued "later" also expire later on the test's clock.
   */
  readonly expirationShiftMs?: () => number;
  /** Told of each answer the emulator gave (forwarded, held then forwarded): the request and its status. */
  readonly onAnswer?: (request: RecordedRequest, status: number) => void;
  /**
   * A rewrite of the emulator's answer to `request` where no fault rewrites it: a field AWS answers
   * and the emulator leaves out (KMS's alias CreationDate); undefined keeps the answer.
   */
  readonly rewriteAnswer?: (request: RecordedRequest) => ((body: string) => string) | undefined;
}

function shiftExpirations(xml: string, shiftMs: number): string {
  return xml.replace(
    /<Expiration>([^<]+)<\/Expiration>/g,
    (_m, at: string) => `<Expiration>${new Date(Date.parse(at) + shiftMs).toISOString()}</Expiration>`,
  );
}

export async function startAwsProxy(upstream: string, opts: AwsProxyOptions = {}): Promise<AwsProxy> {
  const target = new URL(upstream);
  const requests: RecordedRequest[] = [];
  const faults: { fault: Fault; left: number }[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString("utf8");
      const path = req.url ?? "/";
      const params = parseParams(req.headers, body, path);
      const amzTarget = req.headers["x-amz-target"];
      const auth = String(req.headers.authorization ?? "");
      const seen = {
        at: performance.now(),
        method: req.method ?? "GET",
        path,
        headers: req.headers,
        body,
        params,
        action:
          params["Action"] ??
          (typeof amzTarget === "string"
            ? amzTarget.split(".").pop()
            : lambdaOperation(req.method ?? "GET", path)),
        accessKeyId: /Credential=([^/]+)\//.exec(auth)?.[1],
      };
      const hit = faults.find((f) => f.left > 0 && f.fault.match(seen));
      const recorded = { ...seen, fault: hit?.fault.name };
      requests.push(recorded);
      const respond = hit?.fault.respond;
      if (hit) hit.left -= 1;
      if (respond === "reset") {
        req.socket.destroy();
        return;
      }
      if (respond === "hang") return;
      if (typeof respond === "object" && "holdUntil" in respond) {
        respond.holdUntil.then(
          () => forward(undefined),
          () => req.socket.destroy(),
        );
        return;
      }
      if (typeof respond === "object" && "delayMs" in respond) {
        setTimeout(() => forward(undefined), respond.delayMs);
        return;
      }
      if (typeof respond === "object" && "answer" in respond) {
        res.writeHead(respond.answer.status, { "content-type": "application/xml" });
        res.end(respond.answer.body ?? "");
        return;
      }
      if (typeof respond === "object" && "status" in respond) {
        res.writeHead(respond.status, { "content-type": "text/xml" });
        res.end(queryErrorXml(respond.code, respond.message, respond.status));
        return;
      }
      forward(respond);

      function forward(respond: FaultResponse | undefined): void {
        const upstreamRequest = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path,
            headers: { ...req.headers, "content-length": String(raw.length) },
          },
          (up) => {
            // AWS answered (whether or not the answer reaches the client).
            opts.onAnswer?.(recorded, up.statusCode ?? 502);
            if (respond === "forward-then-reset") {
              up.resume();
              up.on("end", () => req.socket.destroy());
              return;
            }
            if (respond === "forward-then-hang") {
              up.resume();
              return;
            }
            const shift = opts.expirationShiftMs?.() ?? 0;
            const rewrite =
              typeof respond === "object" && "rewrite" in respond
                ? respond.rewrite
                : opts.rewriteAnswer?.(recorded);
            if (
              rewrite === undefined &&
              (shift === 0 || !String(up.headers["content-type"] ?? "").includes("xml"))
            ) {
              res.writeHead(up.statusCode ?? 502, up.headers);
              up.pipe(res);
              return;
            }
            const parts: Buffer[] = [];
            up.on("data", (c: Buffer) => parts.push(c));
            up.on("end", () => {
              const answer = Buffer.concat(parts).toString("utf8");
              const text = rewrite ? rewrite(answer) : shiftExpirations(answer, shift);
              const headers: OutgoingHttpHeaders = {
                ...up.headers,
                "content-length": String(Buffer.byteLength(text)),
              };
              delete headers["transfer-encoding"];
              // DynamoDB's checksum of the body the emulator sent, which this one no longer is.
              if (rewrite) delete headers["x-amz-crc32"];
              res.writeHead(up.statusCode ?? 502, headers);
              res.end(text);
            });
          },
        );
        upstreamRequest.on("error", (err) => {
          if (res.headersSent || res.destroyed) return;
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`proxy could not reach ${upstream}: ${err.message}`);
        });
        upstreamRequest.end(raw);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    calls: (action) => requests.filter((r) => r.action === action),
    addFault(fault) {
      const entry = { fault, left: fault.times ?? Number.POSITIVE_INFINITY };
      faults.push(entry);
      return () => {
        const i = faults.indexOf(entry);
        if (i >= 0) faults.splice(i, 1);
      };
    },
    clearFaults() {
      faults.length = 0;
    },
    clearRecording() {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Lambda's REST operations by method and path (its calls name no action): what a kind's test reads. */
const lambdaRoutes: readonly [method: string, path: RegExp, operation: string][] = [
  ["POST", /^\/2015-03-31\/functions$/, "CreateFunction"],
  ["GET", /^\/2015-03-31\/functions\/[^/]+$/, "GetFunction"],
  ["DELETE", /^\/2015-03-31\/functions\/[^/]+$/, "DeleteFunction"],
  ["GET", /^\/2015-03-31\/functions\/[^/]+\/configuration$/, "GetFunctionConfiguration"],
  ["PUT", /^\/2015-03-31\/functions\/[^/]+\/configuration$/, "UpdateFunctionConfiguration"],
  ["PUT", /^\/2015-03-31\/functions\/[^/]+\/code$/, "UpdateFunctionCode"],
  ["PUT", /^\/2017-10-31\/functions\/[^/]+\/concurrency$/, "PutFunctionConcurrency"],
  ["DELETE", /^\/2017-10-31\/functions\/[^/]+\/concurrency$/, "DeleteFunctionConcurrency"],
  ["GET", /^\/2019-09-30\/functions\/[^/]+\/concurrency$/, "GetFunctionConcurrency"],
  ["PUT", /^\/2019-09-25\/functions\/[^/]+\/event-invoke-config$/, "PutFunctionEventInvokeConfig"],
  ["GET", /^\/2019-09-25\/functions\/[^/]+\/event-invoke-config$/, "GetFunctionEventInvokeConfig"],
  ["DELETE", /^\/2019-09-25\/functions\/[^/]+\/event-invoke-config$/, "DeleteFunctionEventInvokeConfig"],
  ["PUT", /^\/2020-06-30\/functions\/[^/]+\/code-signing-config$/, "PutFunctionCodeSigningConfig"],
  ["GET", /^\/2020-06-30\/functions\/[^/]+\/code-signing-config$/, "GetFunctionCodeSigningConfig"],
  ["DELETE", /^\/2020-06-30\/functions\/[^/]+\/code-signing-config$/, "DeleteFunctionCodeSigningConfig"],
  ["POST", /^\/2017-03-31\/tags\/[^/]+$/, "TagResource"],
  ["GET", /^\/2017-03-31\/tags\/[^/]+$/, "ListTags"],
  ["DELETE", /^\/2017-03-31\/tags\/[^/]+$/, "UntagResource"],
];

export function lambdaOperation(method: string, path: string): string | undefined {
  const pathname = path.split("?")[0] ?? "";
  return lambdaRoutes.find(([m, p]) => m === method && p.test(pathname))?.[2];
}

/** What an S3 request is, for fault matching: `CreateBucket`, `PutBucketTagging`, ... (path-style). */
export function s3Operation(r: Pick<RecordedRequest, "method" | "path">): string | undefined {
  const [pathname = "", query = ""] = r.path.split("?");
  const segments = pathname.split("/").filter((x) => x !== "");
  if (segments.length !== 1) return undefined;
  const sub = query.split("&")[0]?.split("=")[0] ?? "";
  // The SDK names some operations itself (the List calls of per-ID configurations).
  const named = new URLSearchParams(query).get("x-id");
  if (named) return named;
  const names: Record<string, string> = {
    abac: "BucketAbac",
    accelerate: "BucketAccelerateConfiguration",
    acl: "BucketAcl",
    cors: "BucketCors",
    lifecycle: "BucketLifecycleConfiguration",
    logging: "BucketLogging",
    notification: "BucketNotificationConfiguration",
    "object-lock": "ObjectLockConfiguration",
    replication: "BucketReplication",
    requestPayment: "BucketRequestPayment",
    website: "BucketWebsite",
    tagging: "BucketTagging",
    versioning: "BucketVersioning",
    encryption: "BucketEncryption",
    policy: "BucketPolicy",
    publicAccessBlock: "PublicAccessBlock",
    ownershipControls: "BucketOwnershipControls",
    location: "BucketLocation",
  };
  const verbs: Record<string, string> = { PUT: "Put", GET: "Get", DELETE: "Delete" };
  if (sub === "") {
    return { PUT: "CreateBucket", HEAD: "HeadBucket", DELETE: "DeleteBucket" }[r.method];
  }
  const name = names[sub];
  const verb = verbs[r.method];
  return name && verb ? `${verb}${name}` : undefined;
}

/** The bucket an S3 path-style request is about. */
export function s3Bucket(r: Pick<RecordedRequest, "path">): string | undefined {
  return r.path
    .split("?")[0]
    ?.split("/")
    .filter((x) => x !== "")[0];
}
