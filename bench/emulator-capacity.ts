// How fast the AWS emulator itself can do the AWS work of N Buckets, with nothing else in the way:
// the bench's own load generator sends exactly the calls the controller made per bucket (the
// operations of `awsCallsPerResourceByOperation`), for fresh buckets spread over the same
// accounts, as plain signed-looking HTTP requests (moto does not check signatures, and no SDK
// runs on this side to slow it), many at once. That time is what a controller with no cost of
// its own would take: the controller's own time divided by it says how close to the emulator's
// limit it runs (1.0 = the emulator is the bottleneck).
import { request } from "node:http";
import { credentialsFor } from "../src/local-stack/accounts.ts";

/** One S3 call of the controller's, as the emulator is asked it. */
interface S3Call {
  readonly method: string;
  readonly query: string;
  readonly body?: string;
}

const tagging = `<Tagging><TagSet><Tag><Key>bench</Key><Value>capacity</Value></Tag></TagSet></Tagging>`;

/** The S3 operations a Bucket's reconcile makes, as requests on a bucket (unknown ones: an error). */
const s3Calls: Readonly<Record<string, S3Call>> = {
  CreateBucket: { method: "PUT", query: "" },
  HeadBucket: { method: "HEAD", query: "" },
  PutBucketTagging: { method: "PUT", query: "?tagging", body: tagging },
  GetBucketTagging: { method: "GET", query: "?tagging" },
  GetBucketEncryption: { method: "GET", query: "?encryption" },
  GetBucketOwnershipControls: { method: "GET", query: "?ownershipControls" },
  GetPublicAccessBlock: { method: "GET", query: "?publicAccessBlock" },
  GetBucketVersioning: { method: "GET", query: "?versioning" },
};

export interface EmulatorCapacity {
  /** Seconds the emulator took for the calls of `buckets` buckets, sent `concurrency` at a time. */
  readonly seconds: number;
  readonly calls: number;
  readonly callsPerSecond: number;
  readonly concurrency: number;
}

function send(endpoint: URL, accessKeyId: string, path: string, call: S3Call): Promise<void> {
  return new Promise((resolve, reject) => {
    const date = new Date().toISOString().replace(/[-:]|\.\d{3}/g, "");
    const req = request(
      {
        host: endpoint.hostname,
        port: endpoint.port,
        method: call.method,
        path: `${path}${call.query}`,
        agent: false,
        headers: {
          authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${date.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${"0".repeat(64)}`,
          "x-amz-date": date,
          "x-amz-content-sha256": "UNSIGNED-PAYLOAD",
          ...(call.body ? { "content-length": Buffer.byteLength(call.body) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", resolve);
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(call.body);
  });
}

/**
 * Sends, for `buckets` fresh buckets named `<prefix>-<i>` over `accounts` in turn, each of the
 * controller's S3 operations (`perBucket`: operation → calls per bucket, rounded), `concurrency`
 * buckets at a time, and times it.
 */
export async function s3Capacity(opts: {
  readonly endpoint: string;
  readonly accounts: readonly string[];
  readonly buckets: number;
  readonly perBucket: Readonly<Record<string, number>>;
  readonly prefix: string;
  readonly concurrency?: number;
}): Promise<EmulatorCapacity> {
  const endpoint = new URL(opts.endpoint);
  const sequence: S3Call[] = [];
  for (const [operation, count] of Object.entries(opts.perBucket)) {
    const [service, name] = operation.split(":");
    if (service !== "s3" || name === undefined) continue;
    const call = s3Calls[name];
    if (call === undefined)
      throw new Error(`emulator-capacity: no request for ${operation}; add it to s3Calls`);
    // CreateBucket first, as the controller does.
    for (let i = 0; i < Math.round(count); i++) {
      if (name === "CreateBucket") sequence.unshift(call);
      else sequence.push(call);
    }
  }
  const keys = await Promise.all(
    opts.accounts.map(async (a) => (await credentialsFor(opts.endpoint, a)).accessKeyId),
  );
  const concurrency = opts.concurrency ?? 64;
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= opts.buckets) return;
      const key = keys[i % keys.length] ?? "";
      for (const call of sequence) await send(endpoint, key, `/${opts.prefix}-${i}`, call);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const calls = opts.buckets * sequence.length;
  return {
    seconds: Number(seconds.toFixed(2)),
    calls,
    callsPerSecond: Number((calls / seconds).toFixed(0)),
    concurrency,
  };
}
