// Remembers the last decision taken for each resource, so that
//   - a decision change is logged once (not once per loop) and counted;
//   - after a configuration change, exactly the resources whose decision changed are re-queued.
import { hash } from "node:crypto";
import type { Logger } from "pino";
import type { Decision } from "../resolver/types.ts";

/**
 * What makes two decisions the same for the reconciler (the trace's wording does not, nor a
 * hop's resourceVersion: a no-op write to an identity — its status, which the controller itself
 * updates whenever the identity's users change — must not re-queue every resource using it; the
 * credential cache ignores it for the same reason).
 */
export function decisionFingerprint(d: Decision): string {
  let fingerprint = fingerprints.get(d);
  if (fingerprint === undefined) {
    const text = JSON.stringify([
      d.outcome,
      d.source,
      d.reason,
      d.roleARN,
      d.account,
      d.region,
      d.endpoint,
      d.selector,
      d.chain.map(({ resourceVersion: _rv, ...hop }) => hop),
      d.message,
      d.drift,
    ]);
    // A hash, kept per resource, instead of the text (half a kilobyte or more each).
    fingerprint = hash("sha256", text, "base64");
    fingerprints.set(d, fingerprint);
  }
  return fingerprint;
}

/** Decisions are shared and never changed (decision-memo.ts): each is fingerprinted once. */
const fingerprints = new WeakMap<Decision, string>();

/** The static-identity Secret a decision's chain reads, if any. */
export function secretOf(d: Decision): string | undefined {
  const first = d.chain[0];
  return first?.kind === "AWSStaticIdentity" ? first.parameters.secretRef : undefined;
}

/** What the tracker keeps of the previous decision: who it acted as. */
export type PreviousDecision = Pick<Decision, "account" | "roleARN">;

export interface DecisionChange {
  readonly key: string;
  readonly decision: Decision;
  /** The previous decision in this process, or undefined on the first one. */
  readonly previous: PreviousDecision | undefined;
}

/**
 * What is kept per resource: what tells decisions apart, and what the log line and the Secret
 * index need. Not the Decision itself: the decision memo holds the current one (with its trace),
 * and a second copy per resource here would double what decisions cost in memory.
 */
interface Recorded extends PreviousDecision {
  readonly fingerprint: string;
  /** The static-identity Secret the decision reads (secretOf). */
  readonly secret: string | undefined;
}

export class DecisionTracker {
  readonly #last = new Map<string, Recorded>();
  readonly #log: Logger;
  readonly #kind: string;
  readonly #onChange: ((change: DecisionChange) => void) | undefined;

  constructor(kind: string, log: Logger, onChange?: (change: DecisionChange) => void) {
    this.#kind = kind;
    this.#log = log;
    this.#onChange = onChange;
  }

  /** Records the decision taken for `key`; returns true (and logs one line) when it changed. */
  record(key: string, decision: Decision): boolean {
    const fingerprint = decisionFingerprint(decision);
    const prev = this.#last.get(key);
    if (prev?.fingerprint === fingerprint) return false;
    this.#last.set(key, {
      fingerprint,
      account: decision.account,
      roleARN: decision.roleARN,
      secret: secretOf(decision),
    });
    const last = decision.chain.at(-1);
    this.#log.info(
      {
        event: "decision",
        resource: `${this.#kind} ${key}`,
        outcome: decision.outcome,
        source: decision.source,
        account: decision.account,
        roleARN: decision.roleARN,
        region: decision.region,
        endpoint: decision.endpoint,
        selector: decision.selector?.name ?? null,
        identity: last ? `${last.kind}/${last.name}` : null,
        sessionName: last?.parameters.sessionName ?? null,
        previousAccount: prev?.account ?? null,
        previousRoleARN: prev?.roleARN ?? null,
      },
      decision.outcome === "use" ? "identity decided" : decision.message,
    );
    this.#onChange?.({
      key,
      decision,
      previous: prev === undefined ? undefined : { account: prev.account, roleARN: prev.roleARN },
    });
    return true;
  }

  /** True when `decision` differs from the one last recorded for `key` (or none was). */
  differs(key: string, decision: Decision): boolean {
    return this.#last.get(key)?.fingerprint !== decisionFingerprint(decision);
  }

  /** Keys whose last decision read the given static-identity Secret. */
  keysUsingSecret(name: string): string[] {
    const out: string[] = [];
    for (const [key, { secret }] of this.#last) if (secret === name) out.push(key);
    return out;
  }

  forget(key: string): void {
    this.#last.delete(key);
  }

  get size(): number {
    return this.#last.size;
  }
}
