// Step 2, after references are filled: a policy document of the spec (a Role's trust policy, a
// Policy's document, a queue's, topic's, bucket's or repository's policy:
// ServiceModule.principalFields) letting in an account the resource's namespace is not granted —
// no reach of the audit's, actual or potential, names it — or every account
// (src/audit/ungranted-principals.ts). By default a Warning Event (PrincipalNotGranted), said once
// per object and finding; with --ungranted-principals=refuse the resource is Terminal and nothing
// is done in AWS.
import { namespaceAccounts } from "../../audit/namespace-accounts.ts";
import { ungrantedPrincipals } from "../../audit/ungranted-principals.ts";
import { servedResourceKinds } from "../../services/served.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import { failed, type Outcome } from "./result.ts";

export function checkPrincipals<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
): Outcome | undefined {
  const fields = env.module.principalFields ?? [];
  if (fields.length === 0) return undefined;
  const namespace = a.ref.namespace;
  const granted = namespaceAccounts(
    { snapshot: env.config.snapshot(), settings: env.settings, kinds: servedResourceKinds },
    namespace,
  );
  const found = ungrantedPrincipals(
    spec as Record<string, unknown>,
    fields,
    namespace,
    granted,
    a.decision.account,
  );
  for (const f of found) {
    // Refused only when certain (an account known only from STS may be the one named).
    if (env.ungrantedPrincipals === "refuse" && f.certain) {
      return failed({
        kind: "terminal",
        reason: "PrincipalNotGranted",
        message: `${f.why}: nothing is done in AWS (the controller runs with --ungranted-principals=refuse). Fix: ${f.fix}`,
      });
    }
    const once = `${a.obj.metadata.uid}\u0000principals\u0000${f.field}\u0000${f.everyone}\u0000${f.accounts.join(",")}`;
    if (env.said.has(once)) continue;
    env.said.set(once, true);
    const message = f.certain
      ? `${f.why}. Fix: ${f.fix}; a controller run with --ungranted-principals=refuse refuses it`
      : `${f.why}. Fix: ${f.fix}; never refused: an account this namespace acts in is known only from STS and may be the one named`;
    env.store.event(a.obj, "Warning", "PrincipalNotGranted", message);
    a.log.info(
      { event: "principals.ungranted", field: f.field, accounts: f.accounts, everyone: f.everyone },
      message,
    );
  }
  return undefined;
}
