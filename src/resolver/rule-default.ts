// DESIGN §3.2: the default identity, i.e. the controller's own credentials. If an
// AWSControllerIdentity named `default` exists, its allowedNamespaces decides which namespaces
// may use them; if none exists, every namespace may (ACK's behaviour). An invalid one fails
// closed: nobody uses the controller's credentials until it is fixed.

import { type Choice, type Context, refused } from "./choice.ts";
import { refusal } from "./decision.ts";
import { controllerHop, identityHop } from "./hops.ts";
import { controllerIdentityKey } from "./snapshot-identities.ts";

const rule = "default identity";

export function ruleDefault(ctx: Context): Choice {
  const { snapshot, namespace, trace } = ctx;
  const ns = namespace.name;
  const chosen = (hop = controllerHop): Choice => ({
    kind: "chosen",
    source: "default",
    chain: [hop],
    roleARN: null,
    account: { from: "controller" },
    selector: null,
    teamEndpoint: null,
    via: "the controller's own credentials",
  });
  const invalid = snapshot.identities.invalid.get(controllerIdentityKey);
  if (invalid !== undefined) {
    const message = `AWSControllerIdentity default cannot be used: ${invalid}; until it is fixed no namespace (including ${ns}) may use the controller's own credentials`;
    trace.failed(rule, `${message}.`);
    return refused(refusal("deny", "default", message));
  }
  const identity = snapshot.identities.cluster.get(controllerIdentityKey);
  if (identity === undefined) {
    trace.taken(
      rule,
      `No AWSControllerIdentity default exists, so every namespace may use the controller's own credentials (as in ACK).`,
    );
    return chosen();
  }
  const allowed = identity.allowedNamespaces!;
  if (!allowed.allows(ns, namespace.labels)) {
    const message = `AWSControllerIdentity default does not allow namespace ${ns}: its allowedNamespaces admits ${allowed.describe()}; map the namespace to a role (IAMRoleSelector, CARM or spec.identityRef) or add ${ns} to AWSControllerIdentity default's spec.allowedNamespaces`;
    trace.failed(rule, `${message}.`);
    return refused(refusal("deny", "default", message));
  }
  trace.taken(
    rule,
    `AWSControllerIdentity default admits namespace ${ns} (allowedNamespaces: ${allowed.describe()}); the controller's own credentials are used.`,
  );
  return chosen(identityHop(identity));
}
