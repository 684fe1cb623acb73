// DESIGN §3.1 step 2: IAMRoleSelector mode. No matching selector → the default identity;
// exactly one → its role, assumed from the controller's credentials; several → the resource's
// `services.k8s.aws/iam-role-selector` annotation may pick one of them, else `conflict` with
// ACK's message. The annotation can only pick among selectors that already match (§3.4), so
// naming any other selector is refused rather than silently ignored.

import { resourceAnnotations } from "../api/annotations.ts";
import { accountOfRoleArn } from "../api/validation.ts";
import { type Choice, type Context, pass, refused } from "./choice.ts";
import { refusal } from "./decision.ts";
import { controllerHop, mappedRoleHop } from "./hops.ts";
import { annotationOf } from "./resource-info.ts";
import { type MatchTarget, matchingSelectors, selectorMismatch } from "./selector-match.ts";
import type { SelectorConfig } from "./snapshot-types.ts";

const rule = "IAMRoleSelector";

/** ACK's condition message for several matching selectors (names sorted). */
export function conflictingSelectorsMessage(names: readonly string[]): string {
  return `Cannot determine which IAMRoleSelector to use. Conflicting IAMRoleSelectors: [${names.join(", ")}]`;
}

function choose(selector: SelectorConfig, ctx: Context, why: string): Choice {
  const rv = selector.resourceVersion;
  ctx.trace.taken(rule, `${why} Its role ${selector.arn} is assumed from the controller's credentials.`);
  return {
    kind: "chosen",
    source: "iamRoleSelector",
    chain: [
      controllerHop,
      mappedRoleHop(
        "IAMRoleSelector",
        selector.name,
        selector.arn,
        selector.parameters,
        selector.explicitSessionName,
        rv,
      ),
    ],
    roleARN: selector.arn,
    // The schema only admits role ARNs, so the account is always there.
    account: { from: "role", account: accountOfRoleArn(selector.arn) ?? "" },
    selector: { name: selector.name, resourceVersion: rv },
    teamEndpoint: null,
    via: `IAMRoleSelector ${selector.name}${rv === "" ? "" : ` (resourceVersion ${rv})`}`,
  };
}

export function ruleIamRoleSelector(ctx: Context): Choice {
  const { resource, namespace, snapshot, trace } = ctx;
  const target: MatchTarget = {
    namespace: namespace.name,
    namespaceLabels: namespace.labels,
    group: resource.group,
    version: resource.version,
    kind: resource.kind,
    resourceLabels: resource.labels,
  };
  const matched = matchingSelectors(snapshot.selectors, target);
  const names = matched.map((s) => s.name);
  const wanted = annotationOf(resource, resourceAnnotations.iamRoleSelector);

  if (wanted !== null) {
    const pick = matched.find((s) => s.name === wanted);
    if (pick !== undefined) {
      return choose(
        pick,
        ctx,
        `Annotation ${resourceAnnotations.iamRoleSelector} picks ${wanted} among the matching selectors [${names.join(", ")}].`,
      );
    }
    const existing = snapshot.selectors.byName.get(wanted);
    const invalid = snapshot.selectors.invalid.get(wanted);
    const why =
      existing !== undefined
        ? `it does not apply to this resource: ${selectorMismatch(existing, target) ?? "it does not match"}`
        : invalid !== undefined
          ? `it is ignored because ${invalid}`
          : "no IAMRoleSelector has that name";
    const message = `Annotation ${resourceAnnotations.iamRoleSelector} names IAMRoleSelector ${wanted}, but ${why}; matching selectors: [${names.join(", ")}]. Name one of them or remove the annotation`;
    trace.failed(rule, `${message}.`);
    return refused(refusal("deny", "iamRoleSelector", message));
  }

  if (matched.length === 0) {
    trace.skipped(
      rule,
      `No IAMRoleSelector matches ${resource.kind} ${namespace.name}/${resource.name} (of ${snapshot.selectors.all.length} valid selectors); the default identity applies.`,
    );
    return pass;
  }
  if (matched.length === 1) {
    return choose(matched[0]!, ctx, `Exactly one IAMRoleSelector matches: ${names[0]}.`);
  }
  const message = conflictingSelectorsMessage(names);
  trace.failed(
    rule,
    `${matched.length} IAMRoleSelectors match [${names.join(", ")}] and nothing disambiguates; set the annotation ${resourceAnnotations.iamRoleSelector} on the resource to one of them, or narrow the selectors.`,
  );
  return refused(refusal("conflict", "iamRoleSelector", message));
}
