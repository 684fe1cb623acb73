// resolve(): which identity, account, region and endpoint a resource uses, and why
// (DESIGN §3). Pure and total: the same inputs always give the same Decision, and no input —
// however malformed — makes it throw.

import { namespaceAnnotations, resourceAnnotations } from "../api/annotations.ts";
import type { Choice, Chosen, Context } from "./choice.ts";
import { type Refusal, refusal, refusedDecision, Trace } from "./decision.ts";
import { placementOf } from "./placement.ts";
import { annotationOf, readResource } from "./resource-info.ts";
import { ruleCarm } from "./rule-carm.ts";
import { ruleDefault } from "./rule-default.ts";
import { ruleIamRoleSelector } from "./rule-iam-role-selector.ts";
import { ruleIdentityRef } from "./rule-identity-ref.ts";
import type { Snapshot } from "./snapshot-types.ts";
import type { Decision, ResourceObject, Settings } from "./types.ts";

/**
 * A resource-level owner-account-id outside the one rule that honours it (CARM mode, where
 * rule-carm warns itself when the gate is off) is ignored: say so, so the user is not misled.
 */
function warnIgnoredResourceAccount(ctx: Context, why: string): void {
  const { resource, namespace, trace } = ctx;
  const account = annotationOf(resource, resourceAnnotations.ownerAccountId);
  if (account === null) return;
  trace.warn(
    "CARM resource owner-account-id",
    `the annotation ${resourceAnnotations.ownerAccountId}=${account} on ${resource.kind} ${namespace.name}/${resource.name} is ignored because ${why}; remove the annotation`,
  );
}

/** Chooses the identity: DESIGN §3.1 steps 1–3, falling through to §3.2. */
function chooseIdentity(ctx: Context): Choice {
  const { resource, settings, trace, namespace } = ctx;
  if (resource.identityRef !== undefined) {
    const choice = ruleIdentityRef(ctx);
    trace.skipped("IAMRoleSelector / CARM", "Not consulted: spec.identityRef takes precedence.");
    warnIgnoredResourceAccount(ctx, "spec.identityRef takes precedence");
    return choice;
  }
  trace.skipped("identityRef", "The resource has no spec.identityRef.");
  if (settings.featureGates.IAMRoleSelector) {
    const ignored: string[] = [];
    if (namespace.ownerAccountId !== null) ignored.push(namespaceAnnotations.ownerAccountId);
    if (namespace.teamId !== null) ignored.push(namespaceAnnotations.teamId);
    if (ignored.length > 0) {
      trace.info(
        "CARM",
        `IAMRoleSelector mode: namespace ${namespace.name}'s ${ignored.join(", ")} annotation is ignored (CARM is off).`,
      );
    }
    warnIgnoredResourceAccount(ctx, "the controller runs in IAMRoleSelector mode (CARM is off)");
    const choice = ruleIamRoleSelector(ctx);
    return choice.kind === "pass" ? ruleDefault(ctx) : choice;
  }
  trace.skipped("IAMRoleSelector", "Feature gate IAMRoleSelector is off (CARM mode).");
  if (!settings.enableCARM) {
    trace.skipped(
      "CARM",
      "CARM is disabled (--enable-carm=false); namespace and resource CARM annotations are ignored.",
    );
    warnIgnoredResourceAccount(ctx, "CARM is disabled (--enable-carm=false)");
    return ruleDefault(ctx);
  }
  const choice = ruleCarm(ctx);
  return choice.kind === "pass" ? ruleDefault(ctx) : choice;
}

function useDecision(chosen: Chosen, ctx: Context): Decision {
  const placement = placementOf(ctx, chosen);
  if ("outcome" in placement) return refusedDecision(placement, ctx.trace);
  const { region, endpoint, account, drift } = placement;
  const subject = `${ctx.resource.kind} ${ctx.namespace.name}/${ctx.resource.name}`;
  const what = chosen.roleARN === null ? chosen.via : `role ${chosen.roleARN} via ${chosen.via}`;
  const message =
    drift !== null
      ? drift.message
      : `${subject} uses ${what}: account ${account ?? "(from sts:GetCallerIdentity)"}, region ${region}${endpoint === null ? "" : `, endpoint ${endpoint}`}`;
  return {
    outcome: "use",
    source: chosen.source,
    reason: drift === null ? "Selected" : drift.kind === "region" ? "RegionDrift" : "AccountDrift",
    roleARN: chosen.roleARN,
    account,
    region,
    endpoint,
    selector: chosen.selector,
    chain: chosen.chain,
    message,
    trace: ctx.trace.steps,
    warnings: ctx.trace.warnings,
    drift,
  };
}

function resolveUnguarded(
  resource: ResourceObject,
  namespace: string,
  snapshot: Snapshot,
  settings: Settings,
): Decision {
  const trace = new Trace();
  const refuse = (r: Refusal) => refusedDecision(r, trace);
  if (settings.featureGates.IAMRoleSelector && settings.enableCARM) {
    const message =
      "--feature-gates IAMRoleSelector=true cannot be combined with --enable-carm=true; fix the controller's flags";
    trace.failed("settings", `${message}.`);
    return refuse(refusal("wait", null, message));
  }
  const read = readResource(resource);
  if (!read.ok) {
    trace.failed("resource", `${read.error}.`);
    return refuse(refusal("wait", null, `${read.error}; fix the object`));
  }
  const info = read.info;
  const ns = snapshot.namespaces.get(namespace);
  if (ns === undefined) {
    const why = snapshot.invalidNamespaces.get(namespace);
    const message =
      why === undefined
        ? `Namespace ${namespace} of ${info.kind} ${namespace}/${info.name} is not known (not yet synced, or missing from the manifests); its annotations and labels are needed to decide`
        : `Namespace ${namespace} cannot be used: ${why}`;
    trace.failed("namespace", `${message}.`);
    return refuse(refusal("wait", null, message));
  }
  trace.info(
    "resource",
    `${info.kind} ${namespace}/${info.name} (${info.apiVersion}, service ${info.service})${
      info.annotations[resourceAnnotations.iamRoleSelector] !== undefined
        ? ", with an iam-role-selector annotation"
        : ""
    }.`,
  );
  const ctx: Context = { resource: info, namespace: ns, snapshot, settings, trace };
  const choice = chooseIdentity(ctx);
  if (choice.kind === "refused") return refuse(choice);
  if (choice.kind === "pass") {
    // chooseIdentity always ends in ruleDefault, which never passes; fail closed regardless.
    return refuse(refusal("wait", null, "no rule chose an identity"));
  }
  return useDecision(choice, ctx);
}

/**
 * Decides which identity `resource` in `namespace` uses. Never throws: an unexpected error
 * (a bug) becomes a `wait` decision that says so, because the reconciler must then do nothing.
 */
export function resolve(
  resource: ResourceObject,
  namespace: string,
  snapshot: Snapshot,
  settings: Settings,
): Decision {
  try {
    return resolveUnguarded(resource, namespace, snapshot, settings);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const trace = new Trace();
    const message = `internal resolver error (${text}); nothing is done for this resource — please report this`;
    trace.failed("resolver", `${message}.`);
    return refusedDecision(refusal("wait", null, message), trace);
  }
}
