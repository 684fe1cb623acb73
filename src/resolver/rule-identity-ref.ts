// DESIGN §3.1 step 1: `spec.identityRef`. The named identity must exist (an
// AWSServiceAccountIdentity in the resource's own namespace) and every identity in its chain
// must admit the namespace through allowedNamespaces; otherwise `deny`, naming the hop that
// refused. It outranks selectors and CARM because the administrator granted it explicitly.

import { isIdentityKind } from "../api/identity-ref.ts";
import { accountOfRoleArn } from "../api/validation.ts";
import { type Choice, type Context, refused } from "./choice.ts";
import { refusal } from "./decision.ts";
import { controllerHop, identityHop } from "./hops.ts";
import {
  clusterIdentityKey,
  controllerIdentityKey,
  identityKey,
  serviceAccountIdentityKey,
} from "./snapshot-identities.ts";
import { isRecord } from "./snapshot-objects.ts";
import type { IdentityConfig, IdentityKindName } from "./snapshot-types.ts";
import type { ChainHop } from "./types.ts";

const rule = "identityRef";

/** Longer than any sane chain; a guard in case the snapshot's cycle check is ever bypassed. */
const maxChainLength = 16;

interface Ref {
  readonly kind: IdentityKindName;
  readonly name: string;
}

function readRef(raw: unknown): Ref | string {
  if (!isRecord(raw)) return "spec.identityRef must be {kind, name}";
  const kind = raw["kind"];
  const name = raw["name"];
  if (typeof kind !== "string" || !isIdentityKind(kind)) {
    return `spec.identityRef.kind ${JSON.stringify(kind ?? null)} is not one of AWSControllerIdentity, AWSStaticIdentity, AWSRoleIdentity, AWSServiceAccountIdentity`;
  }
  if (typeof name !== "string" || name === "") return "spec.identityRef.name must be a non-empty string";
  return { kind, name };
}

type Found = { readonly identity: IdentityConfig | "implicit-controller" } | { readonly missing: string };

/** Finds one identity the way a chain walk may: SA identities in the resource's namespace. */
function find(ref: Ref, ctx: Context): Found {
  const ns = ctx.namespace.name;
  const identities = ctx.snapshot.identities;
  if (ref.kind === "AWSServiceAccountIdentity") {
    const identity = identities.serviceAccount.get(serviceAccountIdentityKey(ns, ref.name));
    if (identity !== undefined) return { identity };
    const why = identities.invalid.get(identityKey(ref.kind, ref.name, ns));
    return {
      missing:
        why === undefined
          ? `AWSServiceAccountIdentity ${ref.name} does not exist in namespace ${ns} (it is looked up in the resource's own namespace)`
          : `AWSServiceAccountIdentity ${ns}/${ref.name} cannot be used: ${why}`,
    };
  }
  if (ref.kind === "AWSControllerIdentity" && ref.name !== "default") {
    return {
      missing: `AWSControllerIdentity ${ref.name} does not exist: the controller identity is a singleton named default`,
    };
  }
  const key = clusterIdentityKey(ref.kind, ref.name);
  const identity = identities.cluster.get(key);
  if (identity !== undefined) {
    const why = identities.invalid.get(key);
    return why === undefined ? { identity } : { missing: `${ref.kind} ${ref.name} cannot be used: ${why}` };
  }
  const why = identities.invalid.get(key);
  if (why !== undefined) return { missing: `${ref.kind} ${ref.name} cannot be used: ${why}` };
  // No AWSControllerIdentity/default: every namespace may use the controller's credentials (§3.2).
  if (key === controllerIdentityKey) return { identity: "implicit-controller" };
  return { missing: `${ref.kind} ${ref.name} does not exist` };
}

export function ruleIdentityRef(ctx: Context): Choice {
  const { trace, namespace } = ctx;
  const ns = namespace.name;
  const first = readRef(ctx.resource.identityRef);
  if (typeof first === "string") {
    trace.failed(rule, `${first}.`);
    return refused(
      refusal(
        "deny",
        "identityRef",
        `${first}; fix spec.identityRef of ${ctx.resource.kind} ${ns}/${ctx.resource.name}`,
      ),
    );
  }
  trace.info(
    rule,
    `spec.identityRef names ${first.kind} ${first.name}; it takes precedence over IAMRoleSelectors and CARM.`,
  );

  // Walk from the requested identity to the base credentials; `walked` is requested-first.
  const walked: ChainHop[] = [];
  const seen = new Set<string>();
  const path: string[] = [];
  let current: Ref = first;
  let base: "controller" | "static" | null = null;
  let lastRole: string | null = null;
  for (;;) {
    const label = `${current.kind} ${current.name}`;
    path.push(label);
    const via = path.length > 1 ? ` (reached from spec.identityRef through ${path.join(" → ")})` : "";
    if (seen.has(label) || path.length > maxChainLength) {
      const message = `the identity chain ${path.join(" → ")} loops or is longer than ${maxChainLength} hops; fix the sourceIdentityRef fields`;
      trace.failed(rule, `${message}.`);
      return refused(refusal("deny", "identityRef", message));
    }
    seen.add(label);
    const found = find(current, ctx);
    if ("missing" in found) {
      trace.failed(rule, `${found.missing}${via}.`);
      return refused(
        refusal(
          "deny",
          "identityRef",
          `${found.missing}${via}; fix or create it, or change spec.identityRef`,
        ),
      );
    }
    if (found.identity === "implicit-controller") {
      trace.taken(
        rule,
        `AWSControllerIdentity default does not exist, so every namespace may use the controller's own credentials (as in ACK).`,
      );
      walked.push(controllerHop);
      base = "controller";
      break;
    }
    const identity = found.identity;
    const allowed = identity.allowedNamespaces;
    if (allowed !== null) {
      if (!allowed.allows(ns, namespace.labels)) {
        const message = `${label} does not allow namespace ${ns}${via}: its allowedNamespaces admits ${allowed.describe()}; an administrator must add ${ns} to ${label}'s spec.allowedNamespaces, or use another identity`;
        trace.failed(rule, `${message}.`);
        return refused(refusal("deny", "identityRef", message));
      }
      trace.taken(rule, `${label} admits namespace ${ns} (allowedNamespaces: ${allowed.describe()}).`);
    } else {
      trace.taken(rule, `${label} is in the resource's own namespace ${ns}, so it may be used.`);
    }
    walked.push(identityHop(identity));
    if (lastRole === null && identity.roleARN !== undefined) lastRole = identity.roleARN;
    if (identity.kind === "AWSRoleIdentity" && identity.source !== undefined) {
      current = identity.source;
      continue;
    }
    base = identity.kind === "AWSStaticIdentity" ? "static" : "controller";
    break;
  }
  const chain = walked.reverse();
  const roleAccount = lastRole === null ? null : accountOfRoleArn(lastRole);
  trace.info(rule, `Chain: ${chain.map((h) => `${h.kind} ${h.name}`).join(" → ")}.`);
  return {
    kind: "chosen",
    source: "identityRef",
    chain,
    roleARN: lastRole,
    account:
      roleAccount !== null
        ? { from: "role", account: roleAccount }
        : base === "static"
          ? { from: "static" }
          : { from: "controller" },
    selector: null,
    teamEndpoint: null,
    via: `${first.kind} ${first.name}`,
  };
}
