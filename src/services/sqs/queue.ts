// The Queue kind: its declaration (queue-declaration.ts) served by the generic runtime, with
// SQS's value rules (schema.ts) and two quirks as hooks: ACK adopts a queue by its URL; and a queue
// encrypted with a KMS key reports an SqsManagedSseEnabled that does not apply beside it.
import type { SQSClient } from "@aws-sdk/client-sqs";
import * as sqsSdk from "@aws-sdk/client-sqs";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { seedFromAddress } from "../service-module-parts.ts";
import { stringBoolean } from "../string-boolean.ts";
import { sqsClientFactory } from "./client.ts";
import { queueGenerated } from "./generated/queue-fields.ts";
import { queueDeclaration } from "./queue-declaration.ts";
import { queueKind, queueSpecSchema, queueStatusSchema } from "./schema.ts";

/**
 * The region a queue URL names (`https://sqs.<region>.amazonaws.com/<account>/<name>`, or the
 * legacy `https://<region>.queue.amazonaws.com/...`); undefined for other endpoints (emulators).
 */
export function regionOfQueueUrl(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const m =
    /^sqs\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(host) ??
    /^([a-z0-9-]+)\.queue\.amazonaws\.com$/.exec(host);
  return m?.[1];
}

/** The account, region (where the host says it) and name a queue URL names: `.../<account>/<name>`. */
export function queueUrlParts(
  url: string,
): { account: string; region: string | undefined; name: string } | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const m = /^\/([0-9]{12})\/([^/]+)\/?$/.exec(path);
  if (m === null) return undefined;
  return { account: m[1] ?? "", region: regionOfQueueUrl(url), name: decodeURIComponent(m[2] ?? "") };
}

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const queueSource = {
  kind: queueKind,
  declaration: queueDeclaration,
  generated: queueGenerated,
  sdk: sqsSdk,
  clientFactory: sqsClientFactory,
  schemas: { spec: queueSpecSchema, status: queueStatusSchema },
  hooks: {
    // ACK's adoption names a queue by its URL (its key), which must be in the resource's account
    // and region; a FIFO queue's name says it is one, and the spec's schema wants both to agree.
    adoptionSeed: (fields, at) => {
      const url = fields["queueURL"];
      const seed =
        url !== undefined
          ? seedFromAddress("queueURL", url, queueUrlParts(url), "queueName", at)
          : fields["queueName"] !== undefined
            ? { ok: true as const, value: { queueName: fields["queueName"] } }
            : {
                ok: false as const,
                message: 'names no queueURL: write {"queueURL": "<the queue\'s URL>"} (ACK\'s key)',
              };
      if (seed.ok && String(seed.value["queueName"]).endsWith(".fifo")) {
        return { ok: true, value: { ...seed.value, fifoQueue: "true" } };
      }
      return seed;
    },
    // SQS keeps one kind of server-side encryption: beside a KMS key SSE-SQS does not apply,
    // whatever SqsManagedSseEnabled says (AWS answers "false" there, the emulator "true"); copied
    // into a spec beside kmsMasterKeyID, a "true" would be refused by the schema.
    observedFields: (fields) => {
      const out = { ...fields };
      if (out["fifoQueue"] !== undefined) out["fifoQueue"] = stringBoolean(String(out["fifoQueue"]));
      if (out["kmsMasterKeyID"] !== undefined) delete out["sqsManagedSSEEnabled"];
      return out;
    },
  },
} satisfies DeclaredKindSource<SQSClient>;

export const queueService = declaredKindModule(queueSource);
