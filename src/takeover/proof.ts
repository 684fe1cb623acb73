// The proof `crossrole takeover --from-ack` prints before it approves anything: for each
// resource ACK managed, whether crossrole may take its AWS object over. Pure: the CLI reads the
// cluster and AWS, this judges. The controller checks the tags again when it takes an object
// over (src/controller/ack-takeover.ts); this proof decides what an administrator approves.
import { judgeAckMade } from "../controller/ack-takeover.ts";
import { judgeOwnership } from "../controller/ownership.ts";
import type { Decision } from "../resolver/types.ts";

/** A resource of a served kind as the cluster has it, with what the CLI worked out for it. */
export interface Candidate {
  readonly kind: string;
  /** The AWS service of the kind (`s3`): ACK's controller-version tag starts with it. */
  readonly service: string;
  readonly group: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly finalizers: readonly string[];
  /** ACK's status record, if any (never an input for placement: compared only). */
  readonly recordedAccount: string | undefined;
  /** ACK's status record of the region (compared only, as the account). */
  readonly recordedRegion?: string | undefined;
  /** The AWS name the spec gives (undefined: the spec does not parse). */
  readonly identifier: string | undefined;
  /** The resolver's decision for it today. */
  readonly decision: Decision;
  /**
   * Why this kind cannot be taken over (a KMS Key: AWS names it by an ID only ACK's status records,
   * which proves nothing of whose it is): refused, saying so.
   */
  readonly notTakenOver?: string;
}

/** What AWS has under the candidate's name in its decided account. */
export type Seen =
  /** `region`: where the object answered from lives, when the kind's read says (a bucket's location). */
  | { readonly found: true; readonly tags: Readonly<Record<string, string>>; readonly region?: string }
  | { readonly found: false; readonly heldElsewhere?: string }
  | { readonly error: string };

export type Verdict =
  /** Passes every check: approving it lets the controller take it over. */
  | "ready"
  /** Tagged as this object's by crossrole already: nothing to do. */
  | "done"
  /** Not ACK's to hand over, or not provably: left alone, with why. */
  | "refused"
  /** No sign ACK ever managed it (no ACK finalizer, no ACK status): not a takeover candidate. */
  | "skipped";

export interface ProofRow {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly identifier: string | undefined;
  readonly account: string | null;
  readonly region: string | null;
  readonly verdict: Verdict;
  /** One sentence: what was proven, or why not. */
  readonly why: string;
}

const ackFinalizer = (c: Pick<Candidate, "group" | "kind">) => `finalizers.${c.group}/${c.kind}`;

/** Judges every candidate; `seen` by `<kind>/<namespace>/<name>`. Rows sorted by kind, namespace, name. */
export function proveTakeover(candidates: readonly Candidate[], seen: ReadonlyMap<string, Seen>): ProofRow[] {
  // Who else names the same AWS object (same kind, AWS name and account): no takeover for any.
  const claims = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.identifier === undefined || c.decision.account === null) continue;
    const key = `${c.kind}\u0000${c.decision.account}\u0000${c.identifier}`;
    claims.set(key, [...(claims.get(key) ?? []), c]);
  }
  return candidates
    .map((c) => judge(c, seen.get(candidateKey(c)), claims))
    .sort((a, b) => (`${a.kind}/${a.namespace}/${a.name}` < `${b.kind}/${b.namespace}/${b.name}` ? -1 : 1));
}

export const candidateKey = (c: Pick<Candidate, "kind" | "namespace" | "name">): string =>
  `${c.kind}/${c.namespace}/${c.name}`;

function judge(c: Candidate, seen: Seen | undefined, claims: ReadonlyMap<string, Candidate[]>): ProofRow {
  const d = c.decision;
  const row = (verdict: Verdict, why: string): ProofRow => ({
    kind: c.kind,
    namespace: c.namespace,
    name: c.name,
    uid: c.uid,
    identifier: c.identifier,
    account: d.account,
    region: d.region,
    verdict,
    why,
  });
  const managedByAck = c.finalizers.includes(ackFinalizer(c)) || c.recordedAccount !== undefined;
  if (!managedByAck) return row("skipped", `no ${ackFinalizer(c)} finalizer and no ACK status: not ACK's`);
  if (c.notTakenOver !== undefined) return row("refused", c.notTakenOver);
  if (c.identifier === undefined) return row("refused", "its spec does not parse: fix it first");
  if (d.outcome !== "use" || d.account === null) {
    return row("refused", `its namespace is not granted an account today (${d.outcome}: ${d.message})`);
  }
  if (c.recordedAccount !== undefined && c.recordedAccount !== d.account) {
    return row(
      "refused",
      `ACK placed it in account ${c.recordedAccount}, but ${c.namespace} is granted account ${d.account} today: fix the grant (CARM map, selector or identity) first`,
    );
  }
  // The region is checked as the account is: taken over elsewhere than decided, the object would
  // be RegionDrift at once (the controller never writes to an object in another region).
  if (c.recordedRegion !== undefined && d.region !== null && c.recordedRegion !== d.region) {
    return row(
      "refused",
      `ACK placed it in region ${c.recordedRegion}, but it is decided into ${d.region} today: annotate it services.k8s.aws/region: ${c.recordedRegion} (or the namespace's services.k8s.aws/default-region) first`,
    );
  }
  const others = (claims.get(`${c.kind}\u0000${d.account}\u0000${c.identifier}`) ?? []).filter(
    (o) => o.uid !== c.uid,
  );
  if (others.length > 0) {
    return row(
      "refused",
      `${others.map((o) => `${o.kind} ${o.namespace}/${o.name}`).join(", ")} also name "${c.identifier}" in account ${d.account}: delete or rename the extra objects first`,
    );
  }
  const where = `"${c.identifier}" in account ${d.account} (${d.region ?? "no region"})`;
  if (seen === undefined) return row("refused", `${where} was not read`);
  if ("error" in seen) return row("refused", `${where} could not be read: ${seen.error}`);
  if (!seen.found) {
    return row(
      "refused",
      seen.heldElsewhere
        ? `${where} cannot be taken: ${seen.heldElsewhere}`
        : `${where} does not exist: nothing to take over (crossrole will create it once the object reconciles)`,
    );
  }
  if (seen.region !== undefined && d.region !== null && seen.region !== d.region) {
    return row(
      "refused",
      `${where} lives in region ${seen.region}: annotate it services.k8s.aws/region: ${seen.region} (or the namespace's services.k8s.aws/default-region) first`,
    );
  }
  const self = { kind: c.kind, namespace: c.namespace, name: c.name, uid: c.uid };
  const ownership = judgeOwnership(seen.tags, self);
  if (ownership.kind === "ours")
    return row("done", `${where} is already tagged as this object's by crossrole`);
  if (ownership.kind !== "untagged") {
    return row(
      "refused",
      `${where} carries crossrole's owner tags for another object: it is not ACK's to hand over`,
    );
  }
  const ack = judgeAckMade(seen.tags, self, c.service, c.uid);
  if (ack === undefined) {
    return row(
      "refused",
      `${where} does not carry ACK's tags (services.k8s.aws/controller-version: ${c.service}-...): ACK did not make it; adopt it with services.k8s.aws/adoption-policy instead`,
    );
  }
  if (ack.forOtherNamespace) return row("refused", `${where}: ${ack.why}`);
  return row(
    "ready",
    `${where} exists, carries ACK's tags (${ack.controllerVersion}, namespace ${ack.namespace}), and no other object names it`,
  );
}
