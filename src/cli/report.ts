// The answer of `explain`: the resolver's Decision plus which resource it is about and what
// the CLI itself had to assume. `-o json` prints this object as is; the text form renders it.
import type {
  ChainHop,
  Decision,
  ResourceObject,
  Settings,
  SnapshotProblem,
  TraceStep,
} from "../resolver/types.ts";
import { isServed, servedKindNames } from "../services/served.ts";
import { ExitCode, type ExitCodeValue } from "./errors.ts";
import type { KubeObject } from "./inputs.ts";

export interface ExplainReport extends Omit<Decision, "chain" | "trace" | "warnings"> {
  readonly resource: { readonly kind: string; readonly namespace: string; readonly name: string };
  readonly chain: readonly ChainHop[];
  /** The decision's warnings (and, for a kind this crossrole does not serve, that first), one sentence each. */
  readonly warnings: readonly string[];
  /** The CLI's own notes (assumptions, what it could not see) first, then the resolver's. */
  readonly trace: readonly TraceStep[];
  /** What is wrong in the configuration objects (excluded or suspicious), whoever it affects. */
  readonly problems: readonly SnapshotProblem[];
  /** Whether this crossrole reconciles the kind at all; when not, nothing happens in AWS. */
  readonly served: boolean;
}

/** What the text rendering may quote besides the report (annotations the rules read). */
export interface ExplainContext {
  readonly systemNamespace: string;
  /** Whether a resource's own owner-account-id annotation counts (gate ResourceLevelCARM). */
  readonly resourceLevelCARM: boolean;
  readonly identityRef: { readonly kind: string; readonly name: string } | null;
  readonly resourceAnnotations: Readonly<Record<string, string>>;
  readonly namespaceAnnotations: Readonly<Record<string, string>>;
  /** Why the controller's account is unknown, when it is. */
  readonly unknownAccountReason: string | null;
}

export function buildReport(
  resource: ResourceObject,
  decision: Decision,
  problems: readonly SnapshotProblem[],
  notes: readonly string[],
  served: boolean = isServed(resource.kind),
): ExplainReport {
  const noteSteps: TraceStep[] = notes.map((detail) => ({ rule: "input", result: "info", detail }));
  return {
    resource: {
      kind: resource.kind,
      namespace: resource.metadata.namespace ?? "",
      name: resource.metadata.name,
    },
    outcome: decision.outcome,
    source: decision.source,
    reason: decision.reason,
    roleARN: decision.roleARN,
    account: decision.account,
    region: decision.region,
    endpoint: decision.endpoint,
    selector: decision.selector,
    chain: decision.chain,
    message: decision.message,
    drift: decision.drift,
    warnings: [
      ...(served
        ? []
        : [
            `${resource.kind} is not reconciled by this crossrole (it serves ${servedKindNames.join(", ")}): nothing happens in AWS for this object; the decision above is what would apply once it is served`,
          ]),
      ...decision.warnings.map((w) => w.message),
    ],
    trace: [...noteSteps, ...decision.trace],
    problems,
    served,
  };
}

export function buildContext(
  resource: ResourceObject,
  namespace: KubeObject | undefined,
  settings: Settings,
  unknownAccountReason: string | null,
): ExplainContext {
  const ref = resource.spec?.identityRef;
  return {
    systemNamespace: settings.systemNamespace,
    resourceLevelCARM: settings.featureGates.ResourceLevelCARM,
    identityRef:
      typeof ref?.kind === "string" && typeof ref.name === "string"
        ? { kind: ref.kind, name: ref.name }
        : null,
    resourceAnnotations: stringMap(resource.metadata.annotations),
    namespaceAnnotations: stringMap(
      (namespace?.["metadata"] as { annotations?: unknown } | undefined)?.annotations,
    ),
    unknownAccountReason,
  };
}

function stringMap(value: unknown): Readonly<Record<string, string>> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** 0 only when the resource will actually be reconciled; a blocked drift or an unserved kind stops it too. */
export function exitCodeFor(report: ExplainReport): ExitCodeValue {
  return report.served && report.outcome === "use" && report.drift === null
    ? ExitCode.ok
    : ExitCode.notReconciled;
}
