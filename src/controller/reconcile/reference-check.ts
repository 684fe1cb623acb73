// Step 3a, right after converge connected and before anything is written in AWS: each reference
// prepare resolved (references.ts) is checked with the referrer's own credentials. The account
// the referrer acts in (its role's, or STS's for static keys) must be the one the referenced
// resource is placed in, and the AWS object the reference names must be that resource's own, as
// its tags say (references.ts, judgeReferencedInAws). A status the tenant forged cannot pass this.
import { judgeOwnership } from "../ownership.ts";
import { judgeReferencedInAws } from "../references.ts";
import type { Attempt } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";
import { type ReferenceCheck, refusedAsSeen } from "./references.ts";
import { failed, type Outcome } from "./result.ts";

/** undefined when every reference holds; else why the referrer waits or stops. */
export async function checkReferencesInAws<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  checks: readonly ReferenceCheck[],
): Promise<Outcome | undefined> {
  for (const check of checks) {
    const module = await env.references?.moduleOf(check.ref.kind);
    if (module === undefined) {
      return failed({
        kind: "terminal",
        reason: "ReferenceNotResolved",
        message: `${check.ref.path} names a ${check.ref.kind}, which this controller does not resolve: set spec.${check.ref.plain} instead`,
      });
    }
    const referenced = { namespace: check.owner.namespace, kind: check.owner.kind, name: check.owner.name };
    const referencedAccount =
      check.decision.account ?? (await env.credentials.callerIdentity(check.decision, referenced)).account;
    const referrer = {
      kind: env.kindName,
      namespace: a.ref.namespace,
      account: conn.account,
      region: a.decision.region,
    };
    const parsed = module.parseSpec(check.spec);
    if (!parsed.ok) {
      const refused = {
        ok: false,
        wait: true,
        state: {
          kind: "recoverable",
          reason: "ReferenceNotSynced",
          message: `${check.ref.path} names ${check.ref.kind} ${check.ref.namespace}/${check.ref.name}, whose spec is not valid: ${parsed.message}`,
        },
      } as const;
      return refusedAsSeen(a, refused, check.ref, referrer, env.waitRequeueMs);
    }
    // Only looked for when the accounts agree: nothing is read where the referrer does not act.
    let ownership: ReturnType<typeof judgeOwnership> | undefined;
    if (referencedAccount === conn.account) {
      // The referenced kind's own client and read, with the referrer's decision: its account and region.
      const client = await module.client(env.credentials, a.decision, a.ref);
      // Named by an ID AWS assigned (a KMS key): the one its status lent, held to its tags here.
      const named =
        module.assigned === undefined || check.id === undefined
          ? parsed.value
          : module.assigned.withId(parsed.value, check.id);
      const seen = await module.read(client, named, conn.call);
      // By its tags: no served kind references one AWS cannot tag (an alias), which would be judged
      // untagged here, and refused (its owner is in the controller's records, not read here).
      ownership = seen.found ? judgeOwnership(module.tagsOf(seen.observed), check.owner) : undefined;
    }
    const judged = judgeReferencedInAws(check.ref, env.kindName, {
      referrerAccount: conn.account,
      referencedAccount,
      ownership,
      readOnly: check.readOnly,
      awsName: check.awsName,
      region: a.decision.region ?? "",
    });
    if (!judged.ok) return refusedAsSeen(a, judged, check.ref, referrer, env.waitRequeueMs);
  }
  return undefined;
}
