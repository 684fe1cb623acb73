// `crossrole takeover --from-ack`: hand the objects ACK's controllers managed over to crossrole,
// only when the administrator asks (--apply), and only what a printed proof shows is ACK's own
// object in the account its namespace is granted today (src/takeover/proof.ts). The controller
// does the takeover itself, re-checking the tags (src/controller/ack-takeover.ts).
import { resourceKinds } from "../api/kinds.ts";
import { takeoverConfigMapName, takeoverKey } from "../controller/ack-takeover.ts";
import { createKubeClient } from "../runtime/kube-client.ts";
import { type AnyServiceModule, servedKindCatalog } from "../services/catalog.ts";
import { isServed } from "../services/served.ts";
import { type Candidate, type ProofRow, proveTakeover } from "../takeover/proof.ts";
import { userAgent } from "../version.ts";
import { booleanFlag, type FlagSpec, helpFlag, renderFlagHelp, stringListFlag } from "./args.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp, rejectArguments } from "./command-args.ts";
import { badInput, ExitCode, type ExitCodeValue } from "./errors.ts";
import type { CliIO } from "./io.ts";
import { outputFlag, outputFormat } from "./output-flag.ts";
import { resolveResource } from "./resolve-adapter.ts";
import { settingsFlags, settingsFromFlags } from "./settings-flags.ts";
import { kubeconfigFromFlags, sourceFlags } from "./source-flags.ts";
import type { AwsCandidate } from "./takeover-aws.ts";
import type { PreflightProblem } from "./takeover-cluster.ts";

const commandName = "crossrole takeover";
const outputs = ["text", "json"] as const;

const takeoverFlags: readonly FlagSpec[] = [
  {
    name: "from-ack",
    type: "boolean",
    help: "Take over the objects ACK's service controllers managed (required).",
  },
  {
    name: "apply",
    type: "boolean",
    help: `Approve the objects the proof shows ready (ConfigMap ${takeoverConfigMapName} in the system namespace); without it nothing is written.`,
  },
  {
    name: "namespace",
    short: "n",
    type: "string",
    multiple: true,
    value: "<namespace>",
    help: "Only resources in these namespaces (repeat the flag; default: every namespace).",
  },
  outputFlag(outputs, "Output format."),
  ...sourceFlags.filter((f) => f.name !== "from"),
  ...settingsFlags,
  helpFlag,
];

const usage = `Usage: ${commandName} --from-ack [--apply] [-n <namespace>]... [-o text|json] [flags]

Hands the objects ACK's controllers (s3, sqs, sns, dynamodb, rds) managed over to crossrole,
without recreating or losing any. First it checks that ACK's controllers are scaled to zero
and crossrole's CRDs replaced ACK's; then, for every resource ACK managed (its finalizer or
status), it proves: the AWS object exists in the account its namespace is granted today (read
with the same role the controller would use), it carries ACK's tags naming that same
namespace, and no other object names it. Objects that pass are "ready"; the others are
listed with the reason and left alone.

Nothing changes without --apply. With it, the ready objects (by UID) are approved in ConfigMap
${takeoverConfigMapName} in the system namespace; the running controller then adds its ownership
tags to each AWS object (checking ACK's tags again) and reconciles it as its own. See
docs/migrate-from-ack.md for the whole procedure and how to roll back.

Pass the controller's flags (--feature-gates, --aws-region, --aws-endpoint-url, ...): the proof
decides accounts and regions as the controller does. AWS credentials: the controller's (default
chain); sts:GetCallerIdentity names the controller's own account, where resources without a CARM
grant, selector or identityRef land (a --controller-account that STS contradicts is a preflight
problem). An object ACK placed in another region than the one decided today is refused.

Exit status: 0 every ACK resource is ready or already crossrole's (and, with --apply, approved);
3 a preflight problem or a refused resource (listed); 2 bad input; 1 the cluster or AWS could
not be read.

Flags:
${renderFlagHelp(takeoverFlags)}
`;

export const takeoverCommand: Command = {
  name: "takeover",
  summary: "Take over the objects ACK's controllers managed, after printing the proof.",
  usage,
  run: runTakeover,
};

async function runTakeover(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, takeoverFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  rejectArguments(commandName, positionals);
  if (!booleanFlag(values, "from-ack")) {
    throw badInput(`${commandName}: say what to take over from: --from-ack (the only source so far).`);
  }
  const output = outputFormat(commandName, values, outputs);
  const apply = booleanFlag(values, "apply");
  const only = new Set(stringListFlag(values, "namespace"));
  const flagged = settingsFromFlags(values, io.env);
  const kinds = resourceKinds.filter((k) => isServed(k.kind));
  // The controller's own account, as the controller learns it: STS names it for the default
  // credential chain, and --controller-account is only a claim STS must confirm. A single-account
  // install (no CARM) places every resource there.
  const { controllerAccountFromSts } = await import("./takeover-cluster.ts");
  const own = await controllerAccountFromSts(flagged);
  const settings = own.settings;

  const loaded = await kubeconfigFromFlags(values, io);
  const kube = createKubeClient(loaded.kubeConfig, { userAgent });
  const { collectAllFromCluster } = await import("./all-from-cluster.ts");
  const { crdsNotCrossroles, runningAckControllers, writeApprovals } = await import("./takeover-cluster.ts");
  const [inputs, running, crds] = await Promise.all([
    collectAllFromCluster(loaded, { systemNamespace: settings.systemNamespace, kinds }),
    runningAckControllers(kube),
    crdsNotCrossroles(kube, kinds),
  ]);
  const preflight: PreflightProblem[] = [...own.problems, ...running, ...crds];

  const items: AwsCandidate[] = [];
  const candidates: Candidate[] = [];
  for (const r of inputs.resources) {
    const namespace = r.metadata.namespace ?? "";
    if (only.size > 0 && !only.has(namespace)) continue;
    const kind = kinds.find((k) => k.kind === r.kind);
    if (!kind || !isServed(kind.kind)) continue;
    const module: AnyServiceModule =
      await servedKindCatalog[kind.kind as keyof typeof servedKindCatalog].module();
    const spec = module.parseSpec(r.spec ?? {});
    const candidate: Candidate = {
      kind: kind.kind,
      service: kind.service,
      group: kind.group,
      namespace,
      name: r.metadata.name,
      uid: r.metadata.uid ?? "",
      finalizers: (r.metadata as { finalizers?: string[] }).finalizers ?? [],
      recordedAccount: r.status?.ackResourceMetadata?.ownerAccountID,
      recordedRegion: r.status?.ackResourceMetadata?.region,
      identifier: spec.ok ? module.identifier(spec.value) : undefined,
      decision: resolveResource(inputs.objects, r, settings).decision,
      ...(module.assigned === undefined
        ? {}
        : {
            notTakenOver: `a ${kind.kind} is named by the ID AWS assigned it, which only ACK's status.${module.assigned.statusField} records (the tenant's to write): it cannot be proven ACK's; not taken over yet`,
          }),
    };
    candidates.push(candidate);
    if (spec.ok && candidate.notTakenOver === undefined) items.push({ candidate, module, spec: spec.value });
  }
  const { readCandidates } = await import("./takeover-aws.ts");
  const rows = proveTakeover(candidates, await readCandidates(kube, settings, items));

  const ready = rows.filter((r) => r.verdict === "ready");
  let approved: string[] = [];
  if (apply && preflight.length === 0 && ready.length > 0) {
    const approvals = Object.fromEntries(ready.map((r) => [takeoverKey(r), r.uid]));
    await writeApprovals(kube, settings.systemNamespace, approvals);
    approved = Object.keys(approvals);
  }
  const report = {
    preflight,
    rows,
    approved,
    configMap: `${settings.systemNamespace}/${takeoverConfigMapName}`,
  };
  io.stdout(output === "json" ? `${JSON.stringify(report, null, 2)}\n` : renderTakeover(report, apply));
  const refused = rows.some((r) => r.verdict === "refused");
  return preflight.length > 0 || refused ? ExitCode.notReconciled : ExitCode.ok;
}

interface TakeoverReport {
  readonly preflight: readonly PreflightProblem[];
  readonly rows: readonly ProofRow[];
  readonly approved: readonly string[];
  readonly configMap: string;
}

/** The proof for a person: preflight, one line per resource, then what happened or what next. */
export function renderTakeover(r: TakeoverReport, apply: boolean): string {
  const lines: string[] = [];
  const shown = r.rows.filter((row) => row.verdict !== "skipped");
  const count = (v: ProofRow["verdict"]) => r.rows.filter((row) => row.verdict === v).length;
  lines.push(`${commandName} --from-ack: ${shown.length} resources ACK managed`);
  lines.push("Preflight:");
  if (r.preflight.length === 0)
    lines.push("  ok: no ACK controller runs, and the served kinds' CRDs are crossrole's");
  for (const p of r.preflight) lines.push(`  problem: ${p.what}; fix: ${p.fix}`);
  lines.push("Proof:");
  if (shown.length === 0) lines.push("  (no resource ACK managed)");
  for (const row of shown)
    lines.push(`  ${row.verdict.padEnd(7)} ${row.kind} ${row.namespace}/${row.name}: ${row.why}`);
  lines.push(
    `Summary: ${count("ready")} ready, ${count("refused")} refused (left alone), ${count("done")} already crossrole's, ${count("skipped")} not ACK's.`,
  );
  if (r.approved.length > 0) {
    lines.push(
      `Approved ${r.approved.length} in ConfigMap ${r.configMap}: the controller takes each over at once (Event TakenOver; kubectl get <kind> -A shows REASON).`,
    );
  } else if (apply && r.preflight.length > 0) {
    lines.push("Nothing approved: fix the preflight problems first, then run again with --apply.");
  } else if (!apply && count("ready") > 0) {
    lines.push(`Next: run again with --apply to approve the ${count("ready")} ready resources.`);
  }
  return `${lines.join("\n")}\n`;
}
