// The text form of `explain`: what a person would write when asked "which role, and why?",
// followed by the resolver's trace as numbered steps. Pure: report in, text out.
import type { ChainHop, HopParameters } from "../resolver/types.ts";
import type { ExplainContext, ExplainReport } from "./report.ts";

const ownerAccountAnnotation = "services.k8s.aws/owner-account-id";
const teamAnnotation = "services.k8s.aws/team-id";

export function renderText(report: ExplainReport, context: ExplainContext): string {
  const paragraphs =
    report.outcome === "use" ? usableParagraphs(report, context) : refusedParagraphs(report, context);
  const trace = report.trace.map(
    (step, index) => `  ${String(index + 1).padStart(2)}. ${step.rule} (${step.result}): ${step.detail}`,
  );
  const warnings = report.warnings.map((w) => `Warning: ${sentence(w)}`);
  const sections = [...paragraphs, ...warnings, `How this was decided:\n${trace.join("\n")}`];
  if (report.problems.length > 0) sections.push(problemsText(report));
  return `${sections.join("\n\n")}\n`;
}

const shownProblems = 10;

function problemsText(report: ExplainReport): string {
  const lines = report.problems.slice(0, shownProblems).map((problem) => {
    const { kind, namespace, name } = problem.object;
    const object = `${kind} ${namespace === undefined ? "" : `${namespace}/`}${name}`;
    return `  - ${problem.severity}: ${object} ${problem.field}: ${sentence(problem.message)} Fix: ${sentence(problem.fix)}`;
  });
  const more = report.problems.length - shownProblems;
  if (more > 0) lines.push(`  ... and ${more} more (see -o json).`);
  return `Problems in the configuration (objects with errors are ignored):\n${lines.join("\n")}`;
}

function subject(report: ExplainReport): string {
  const { kind, namespace, name } = report.resource;
  return `${kind} ${namespace}/${name}`;
}

function usableParagraphs(report: ExplainReport, context: ExplainContext): string[] {
  const where = [
    report.region ?? "no region set",
    ...(report.endpoint === null ? [] : [`endpoint ${report.endpoint}`]),
  ];
  const account =
    report.account !== null
      ? `account ${report.account}`
      : `the controller's own account (not known: ${context.unknownAccountReason ?? "no --controller-account given"})`;
  const as = report.roleARN ?? credentialsName(report.chain);
  const will = report.served ? "will be" : "would be";
  const headline = `${subject(report)} ${will} reconciled in ${account} (${where.join(", ")}) as ${as}, because ${because(report, context)}.`;
  const paragraphs = [headline, `Chain: ${chainText(report.chain, context)}.`];
  if (report.drift !== null) {
    paragraphs.push(
      `But it is blocked: ${sentence(report.drift.message)} Nothing will be called in AWS for it until this is resolved.\n` +
        `Fix: ${driftFix(report)}`,
    );
  }
  return paragraphs;
}

function refusedParagraphs(report: ExplainReport, context: ExplainContext): string[] {
  const headline = `${subject(report)} will NOT be reconciled (${report.outcome}): ${sentence(report.message)}`;
  const fix = refusalFix(report, context);
  return [
    headline,
    `Nothing is called in AWS for it until this is fixed.${fix === null ? "" : `\nFix: ${fix}`}`,
  ];
}

function credentialsName(chain: readonly ChainHop[]): string {
  const base = chain[0];
  if (base?.kind === "AWSStaticIdentity") return `the static keys of AWSStaticIdentity ${base.name}`;
  return "the controller's own credentials";
}

function because(report: ExplainReport, context: ExplainContext): string {
  const namespace = report.resource.namespace;
  const last = report.chain[report.chain.length - 1];
  const mapKey = last?.kind === "CARM" ? ` maps key "${last.name}" to that role` : " maps it to that role";
  switch (report.source) {
    case "identityRef": {
      const ref = context.identityRef ?? (last === undefined ? null : { kind: last.kind, name: last.name });
      return ref === null
        ? `spec.identityRef names an identity that allows namespace ${namespace}`
        : `spec.identityRef names ${ref.kind} ${ref.name}, which allows namespace ${namespace}`;
    }
    case "iamRoleSelector": {
      const selector = report.selector;
      const picked = context.resourceAnnotations["services.k8s.aws/iam-role-selector"];
      const name =
        selector === null
          ? "an IAMRoleSelector"
          : // Offline (manifests) a selector has no resourceVersion: say nothing rather than "()".
            `IAMRoleSelector ${selector.name}${selector.resourceVersion ? ` (resourceVersion ${selector.resourceVersion})` : ""}`;
      return picked !== undefined && picked === selector?.name
        ? `${name} matches it and its services.k8s.aws/iam-role-selector annotation picks that selector`
        : `${name} matches it`;
    }
    case "accountCARM": {
      // The resolver ignores the resource's own annotation unless the gate is on.
      const onResource = context.resourceLevelCARM
        ? context.resourceAnnotations[ownerAccountAnnotation]
        : undefined;
      const onNamespace = context.namespaceAnnotations[ownerAccountAnnotation];
      const why =
        onResource !== undefined
          ? `its ${ownerAccountAnnotation} annotation asks for account ${onResource}, which namespace ${namespace} allows,`
          : onNamespace !== undefined
            ? `namespace ${namespace} is annotated ${ownerAccountAnnotation}: "${onNamespace}"`
            : "its status records an owner account other than the controller's,";
      return `${why} and the CARM account map${mapKey}`;
    }
    case "teamCARM": {
      const team = context.namespaceAnnotations[teamAnnotation];
      return `namespace ${namespace} is annotated ${teamAnnotation}: "${team ?? "?"}" and the CARM team map${mapKey}`;
    }
    case "default":
      return `nothing asks for another identity (no spec.identityRef, and no ${
        report.trace.some((s) => s.rule.toLowerCase().includes("selector"))
          ? "IAMRoleSelector"
          : "CARM mapping"
      } applies) and the controller's credentials may be used in namespace ${namespace}`;
    default:
      return report.message;
  }
}

function chainText(chain: readonly ChainHop[], context: ExplainContext): string {
  if (chain.length === 0) return "(no hops)";
  return chain.map((hop) => hopText(hop, context)).join(" → ");
}

function hopText(hop: ChainHop, context: ExplainContext): string {
  const details = parameterText(hop.parameters);
  switch (hop.kind) {
    case "AWSControllerIdentity":
      return `controller credentials${hop.name === "default" ? "" : ` (AWSControllerIdentity ${hop.name})`}`;
    case "AWSStaticIdentity":
      return `static keys from Secret ${context.systemNamespace}/${hop.parameters.secretRef ?? "?"} (AWSStaticIdentity ${hop.name})`;
    case "AWSServiceAccountIdentity":
      return (
        `token of ServiceAccount ${hop.namespace ?? "?"}/${hop.parameters.serviceAccountName ?? "?"}, ` +
        `assume ${hop.roleARN ?? "?"} with web identity (AWSServiceAccountIdentity ${hop.name}${details})`
      );
    case "CARM":
      return `assume ${hop.roleARN ?? "?"} (CARM key "${hop.name}"${details})`;
    default:
      return `assume ${hop.roleARN ?? "?"} (${hop.kind} ${hop.name}${details})`;
  }
}

function parameterText(parameters: HopParameters): string {
  const parts: string[] = [];
  if (parameters.sessionName !== undefined) parts.push(`session ${parameters.sessionName}`);
  if (parameters.durationSeconds !== undefined) parts.push(`${parameters.durationSeconds} s`);
  if (parameters.externalID !== undefined) parts.push("with external ID");
  if (parameters.sessionTags !== undefined && parameters.sessionTags.length > 0) {
    parts.push(`tags ${parameters.sessionTags.map((t) => `${t.key}=${t.value}`).join(",")}`);
  }
  if (parameters.tenantSessionTags === true) parts.push("tenant session tags");
  return parts.length === 0 ? "" : `; ${parts.join(", ")}`;
}

/**
 * A fix to add to the resolver's message, or null when the message already says what to do
 * (its deny and wait messages name the object and the fix; guessing more could mislead).
 */
function refusalFix(report: ExplainReport, context: ExplainContext): string | null {
  const namespace = report.resource.namespace;
  // The rule that refused says best what is missing; the reason alone is too coarse.
  const failed = report.trace.findLast((step) => step.result === "failed")?.rule;
  switch (failed) {
    case "region":
      return (
        `give it a region: the services.k8s.aws/region annotation on the resource, services.k8s.aws/default-region ` +
        `on namespace ${namespace}, or the controller's --aws-region (pass the same flag to explain).`
      );
    case "namespace":
      return `make Namespace ${namespace} available: apply it, or add its manifest to --from.`;
    case "settings":
      return "correct the flags as the message says (explain takes the controller's flags).";
    case "resolver":
      return "this is a bug in crossrole; please report it with the output of -o json.";
  }
  if (report.reason !== "IdentityConflict") return null;
  if (report.source === "iamRoleSelector") {
    return (
      "annotate the resource with services.k8s.aws/iam-role-selector: <one of the selectors above>, " +
      "or narrow the selectors so that only one matches it."
    );
  }
  return `make the CARM ConfigMaps in namespace ${context.systemNamespace} agree on the key named above, or remove it from all but one.`;
}

function driftFix(report: ExplainReport): string {
  if (report.drift?.kind === "region") {
    return (
      "set the desired region back to the recorded one (services.k8s.aws/region annotation or the namespace's " +
      "services.k8s.aws/default-region), or delete the resource and create it anew in the new region."
    );
  }
  return (
    "restore the mapping that points to the recorded account, or run the controller with " +
    "--account-drift-policy=recreate to follow the new role (the old resource is left behind)."
  );
}

/** Ends a message from elsewhere with exactly one full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
