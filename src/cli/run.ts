// `crossrole run`: the controller. Flags follow ACK's controller flags where they overlap
// (--aws-region, --watch-namespace, --reconcile-default-resync-seconds, ...), plus crossrole's
// own (--account-drift-policy, --sts-qps/--sts-burst, --system-namespace).
import { hostname } from "node:os";
import { setFlagsFromString } from "node:v8";
import { type DeletionPolicy, deletionPolicies } from "../api/annotations.ts";
import { createLogger } from "../runtime/logger.ts";
import { servedKindNames } from "../services/served.ts";
import {
  ackNoOpFlags,
  crossNamespaceNote,
  parseHttpClientTimeout,
  parseReconcileResources,
  parseResourceTagsFlag,
  parseWatchSelectors,
} from "./ack-run-flags.ts";
import { booleanFlag, type FlagSpec, helpFlag, renderFlagHelp, stringFlag, stringListFlag } from "./args.ts";
import { parseServiceRateLimits } from "./aws-rate-limit-flag.ts";
import type { Command } from "./command.ts";
import { parseArgsOrHelp, rejectArguments } from "./command-args.ts";
import { badInput, ExitCode, type ExitCodeValue } from "./errors.ts";
import type { CliIO } from "./io.ts";
import { memoryPhaseLog } from "./memory-phases.ts";
import { parsePerKind } from "./per-kind-flags.ts";
import { settingsFlags, settingsFromFlags } from "./settings-flags.ts";
import { kubeconfigFromFlags } from "./source-flags.ts";

const commandName = "crossrole run";

const runFlags: readonly FlagSpec[] = [
  {
    name: "kubeconfig",
    type: "string",
    value: "<file>",
    help: "Kubeconfig file (else KUBECONFIG, else ~/.kube/config, else in-cluster).",
  },
  { name: "context", type: "string", value: "<name>", help: "Kubeconfig context to use." },
  {
    name: "watch-namespace",
    type: "string",
    value: "<ns,ns,...>",
    help: "Only reconcile resources in these namespaces (needs only namespace-scoped RBAC there).",
  },
  {
    name: "reconcile-default-resync-seconds",
    type: "string",
    value: "<seconds>",
    default: "36000",
    help: "Resync period after a successful reconcile.",
  },
  {
    name: "reconcile-resource-resync-seconds",
    type: "string",
    value: "<Kind=seconds>",
    multiple: true,
    help: "Resync period for one kind (e.g. Bucket=600), overriding the default; shorter notices out-of-band changes sooner.",
  },
  {
    name: "reconcile-default-max-concurrent-syncs",
    type: "string",
    value: "<n>",
    default: "4",
    help: "Concurrent reconciles per kind (ACK's default is 1). What bounds AWS calls is --aws-api-qps per account and service; the work queue hands keys out fairly across namespaces.",
  },
  {
    name: "reconcile-resource-max-concurrent-syncs",
    type: "string",
    value: "<Kind=n>",
    multiple: true,
    help: "Concurrent reconciles for one kind (e.g. Bucket=8), overriding the default.",
  },
  {
    name: "metrics-addr",
    type: "string",
    value: "<host:port>",
    default: ":8080",
    help: 'Where /metrics listens ("0" to disable).',
  },
  {
    name: "healthz-addr",
    type: "string",
    value: "<host:port>",
    default: ":8081",
    help: 'Where /healthz and /readyz listen ("0" to disable).',
  },
  {
    name: "enable-leader-election",
    type: "boolean",
    default: false,
    help: "Lease-based leader election, in the system namespace unless --leader-election-namespace says another.",
  },
  {
    name: "leader-election-name",
    type: "string",
    value: "<lease>",
    default: "crossrole-leader",
    help: "Name of the Lease.",
  },
  {
    name: "log-level",
    type: "string",
    value: "<level>",
    default: "info",
    help: "trace, debug, info, warn, error.",
  },
  {
    name: "deletion-policy",
    type: "string",
    value: "<delete|retain>",
    default: "delete",
    help: "Default deletion policy.",
  },
  {
    name: "sts-qps",
    type: "string",
    value: "<n>",
    default: "20",
    help: "Process-wide STS calls per second.",
  },
  {
    name: "sts-burst",
    type: "string",
    value: "<n>",
    default: "40",
    help: "STS calls that may start at once.",
  },
  {
    name: "enable-sharding",
    type: "boolean",
    default: false,
    help: "Run the resource controllers on every replica, each on the namespaces its shard holds (member Leases in the system namespace; the other controllers stay on the leader).",
  },
  {
    name: "shard-member",
    type: "string",
    value: "<name>",
    help: "This replica's member name, unique among the replicas (default: $POD_NAME, else the host name).",
  },
  {
    name: "shard-lease-duration-seconds",
    type: "string",
    value: "<seconds>",
    default: "15",
    help: "How long a replica that stopped renewing its member Lease keeps its namespaces before the others take them.",
  },
  {
    name: "aws-api-qps",
    type: "string",
    value: "<n>",
    default: "100",
    help: "AWS calls per second for each service, region and account (STS aside): crossrole waits rather than be throttled.",
  },
  {
    name: "aws-api-burst",
    type: "string",
    value: "<n>",
    default: "300",
    help: "AWS calls that may start at once for each service, region and account.",
  },
  {
    name: "aws-api-rate-limit",
    type: "string",
    value: "<service=qps:burst>",
    multiple: true,
    help: "A service's own limit per region and account, overriding the two above (e.g. rds=10:100).",
  },
  {
    name: "allow-cross-namespace-references",
    type: "boolean",
    default: false,
    help: "Let ACK's references (e.g. spec.dbSubnetGroupRef) name an object in another namespace; off, a reference names one in the resource's own namespace.",
  },
  {
    name: "ungranted-principals",
    type: "string",
    value: "<warn|refuse>",
    default: "warn",
    help: "A policy document (a Role's trust policy, a Policy's document, a queue's, topic's, bucket's or repository's policy) letting in an account its namespace is not granted, or every account: warn (a Warning Event PrincipalNotGranted) or refuse (the resource is Terminal, nothing is done in AWS).",
  },
  {
    name: "resource-tags",
    type: "string",
    value: "<key=value,...>",
    multiple: true,
    help: "Tags written on every AWS object crossrole creates or adopts (ACK's); values may use %CONTROLLER_SERVICE%, %CONTROLLER_VERSION%, %K8S_NAMESPACE%, %K8S_RESOURCE_NAME%, %K8S_RESOURCE_KIND%, %MANAGED_BY%, %KRO_VERSION%, %MANAGED_ACCOUNT_ID%, %MANAGED_REGION%. A spec's own tag of the same key wins; reserved keys (services.k8s.aws/, crossrole.dev/, aws:) are not used. Keys may have at most 128 characters (AWS's limit); a value that expands to more than 256 is cut to its first 247, '-' and 8 hex characters of the SHA-256 of the whole value.",
  },
  {
    name: "watch-selectors",
    type: "string",
    value: "<selector>",
    multiple: true,
    help: "Only see managed resources whose labels match (ACK's; e.g. team=a,tier!=test).",
  },
  {
    name: "reconcile-resources",
    type: "string",
    value: "<Kind,...>",
    multiple: true,
    help: "Reconcile only these kinds (ACK's); empty: every served kind.",
  },
  {
    name: "create-intent-window-seconds",
    type: "string",
    value: "<seconds>",
    default: "120",
    help: "How long after a create was requested it may still land in AWS (an answer lost to a timeout or a crash): until then, finding nothing does not cause a second create, and deleting the resource waits for it.",
  },
  // ACK's runtime flags (aws-controllers-k8s/runtime pkg/config), so that ACK's charts and
  // manifests start crossrole unchanged: honoured with ACK's meaning, or a no-op said in the log.
  {
    name: "leader-election-namespace",
    type: "string",
    value: "<namespace>",
    help: "The namespace of the leader election Lease (ACK's); empty: the system namespace. The controller must be allowed to manage Leases there.",
  },
  {
    name: "http-client-timeout",
    type: "string",
    value: "<duration>",
    help: "How long an AWS request may wait for its answer, per attempt (ACK's; a Go duration such as 60s; default 10s). 0 (none) is refused. The create intent window is raised to cover three attempts if it is shorter.",
  },
  {
    name: "aws-identity-endpoint-url",
    type: "string",
    value: "<url>",
    help: "The STS endpoint sts:GetCallerIdentity asks for the controller's own account (ACK's); default: --aws-endpoint-url.",
  },
  {
    name: "enable-cross-namespace",
    type: "boolean",
    help: "ACK's (its charts pass true): false is crossrole's default, references stay in their namespace; true grants nothing here, --allow-cross-namespace-references does.",
  },
  ...Object.entries(ackNoOpFlags).map(
    ([name, why]): FlagSpec =>
      name === "webhook-server-addr"
        ? { name, type: "string", value: "<addr>", help: `ACK's; no effect: ${why}.` }
        : { name, type: "boolean", help: `ACK's; no effect: ${why}.` },
  ),
  ...settingsFlags,
  helpFlag,
];

const usage = `Usage: ${commandName} [flags]

Runs the controller: watches the managed resource kinds and crossrole's configuration (namespaces,
CARM ConfigMaps, IAMRoleSelectors, identities) and reconciles each resource in the AWS account its
identity decides. Stops gracefully on SIGTERM/SIGINT.

Flags:
${renderFlagHelp(runFlags)}
`;

export const runCommand: Command = { name: "run", summary: "Run the controller.", usage, run: runController };

function positiveInt(values: Parameters<typeof stringFlag>[0], name: string): number {
  const text = stringFlag(values, name) ?? "";
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0)
    throw badInput(`${commandName}: --${name} ${text} is not a positive whole number.`);
  return n;
}

function address(values: Parameters<typeof stringFlag>[0], name: string): string | undefined {
  const v = stringFlag(values, name);
  return v === undefined || v === "0" || v === "" ? undefined : v;
}

async function runController(args: readonly string[], io: CliIO): Promise<ExitCodeValue> {
  const parsed = parseArgsOrHelp(commandName, runFlags, usage, args, io);
  if (parsed === null) return ExitCode.ok;
  const { values, positionals } = parsed;
  rejectArguments(commandName, positionals);
  const settings = settingsFromFlags(values, io.env);
  const deletionPolicy = stringFlag(values, "deletion-policy") ?? "delete";
  if (!(deletionPolicies as readonly string[]).includes(deletionPolicy)) {
    throw badInput(
      `${commandName}: --deletion-policy ${deletionPolicy} is not a deletion policy; use delete or retain.`,
    );
  }
  if (booleanFlag(values, "enable-sharding") && !booleanFlag(values, "enable-leader-election")) {
    // Every replica would run the identity, selector and configuration controllers, each writing
    // the same statuses: they must run on one replica, the leader.
    throw badInput(
      `${commandName}: --enable-sharding needs --enable-leader-election=true: the resources are sharded across the replicas, but identity protection, selector status and configuration problems are written by one of them, the leader.`,
    );
  }
  const watchNamespaces = (stringFlag(values, "watch-namespace") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const perKind = (flag: string) => {
    const r = parsePerKind(flag, stringListFlag(values, flag), servedKindNames);
    if (!r.ok) throw badInput(`${commandName}: ${r.message}`);
    return r.value;
  };
  const orBadInput = <T>(r: { ok: true; value: T } | { ok: false; message: string }): T => {
    if (!r.ok) throw badInput(`${commandName}: ${r.message}`);
    return r.value;
  };
  const resourceTags = orBadInput(parseResourceTagsFlag(stringListFlag(values, "resource-tags")));
  const watchSelectors = orBadInput(parseWatchSelectors(stringListFlag(values, "watch-selectors")));
  const reconcileKinds = orBadInput(
    parseReconcileResources(stringListFlag(values, "reconcile-resources"), servedKindNames),
  );
  const given = (name: string): string | undefined => {
    const v = stringFlag(values, name)?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const leaseNamespace = given("leader-election-namespace");
  if (leaseNamespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(leaseNamespace))
    throw badInput(`${commandName}: --leader-election-namespace ${leaseNamespace} is not a namespace name.`);
  const timeoutText = given("http-client-timeout");
  const awsRequestTimeoutMs =
    timeoutText === undefined ? undefined : orBadInput(parseHttpClientTimeout(timeoutText));
  const identityEndpoint = given("aws-identity-endpoint-url");
  if (identityEndpoint !== undefined && !URL.canParse(identityEndpoint))
    throw badInput(`${commandName}: --aws-identity-endpoint-url "${identityEndpoint}" is not a URL.`);
  const allowCrossNamespaceReferences = booleanFlag(values, "allow-cross-namespace-references");
  const ungrantedPrincipals = given("ungranted-principals") ?? "warn";
  if (ungrantedPrincipals !== "warn" && ungrantedPrincipals !== "refuse")
    throw badInput(`${commandName}: --ungranted-principals ${ungrantedPrincipals}: write warn or refuse.`);
  const crossNamespace = orBadInput(
    crossNamespaceNote(
      values["enable-cross-namespace"] === undefined
        ? undefined
        : booleanFlag(values, "enable-cross-namespace"),
      allowCrossNamespaceReferences,
    ),
  );
  const serviceRateLimits = parseServiceRateLimits(stringListFlag(values, "aws-api-rate-limit"));
  if (!serviceRateLimits.ok) throw badInput(`${commandName}: ${serviceRateLimits.error}`);
  const resyncSecondsByKind = perKind("reconcile-resource-resync-seconds");
  const maxConcurrentSyncsByKind = perKind("reconcile-resource-max-concurrent-syncs");
  const { kubeConfig } = await kubeconfigFromFlags(values, io);
  // A long-running process whose live heap is small (~30-40 MB for 500 resources) but which
  // allocates fast: with V8's default growth factor the old generation grows to twice its live
  // size before a major GC. Growing by 25% per GC keeps the peak close to the live heap at the
  // same speed (bench:e2e). V8 reads this flag whenever it sizes the heap, so setting it here
  // covers every launch line (bin, container, harness); the flags V8 reads only at start-up are
  // bin/crossrole.js's.
  setFlagsFromString("--heap-growing-percent=25");
  // Loaded here, not at the top: `crossrole explain` must not pay for the controller's imports.
  const { ControllerAccountError, startController } = await import("../controller/start.ts");
  const { minIntentWindowMs } = await import("../controller/create-intent.ts");
  const memory = memoryPhaseLog(io.env);
  memory?.mark("imports");
  const logger = createLogger(stringFlag(values, "log-level") ?? "info");
  // One line per ACK flag that was given and changes nothing here, saying why.
  for (const [flag, why] of Object.entries(ackNoOpFlags)) {
    if (values[flag] !== undefined)
      logger.info(
        { event: "controller.ack-flag-ignored", flag: `--${flag}` },
        `--${flag}: no effect: ${why}`,
      );
  }
  if (crossNamespace !== undefined)
    logger.info({ event: "controller.ack-flag-ignored", flag: "--enable-cross-namespace" }, crossNamespace);
  const requestedWindowMs = positiveInt(values, "create-intent-window-seconds") * 1000;
  const createIntentWindowMs =
    awsRequestTimeoutMs === undefined
      ? requestedWindowMs
      : Math.max(requestedWindowMs, minIntentWindowMs(awsRequestTimeoutMs));
  if (createIntentWindowMs !== requestedWindowMs) {
    logger.info(
      {
        event: "controller.create-intent-window",
        requestedSeconds: requestedWindowMs / 1000,
        seconds: createIntentWindowMs / 1000,
      },
      `--create-intent-window-seconds raised to ${createIntentWindowMs / 1000}: a create's three attempts of --http-client-timeout ${timeoutText} may be answered that late`,
    );
  }
  if (resourceTags.reserved.length > 0) {
    logger.info(
      { event: "controller.resource-tags-reserved", keys: resourceTags.reserved },
      "--resource-tags: these keys are reserved (services.k8s.aws/, crossrole.dev/, aws:): crossrole writes its ownership tags itself and AWS refuses aws:; the given values are not used",
    );
  }
  const running = await startController({
    kubeConfig,
    logger,
    settings,
    watchNamespaces,
    deletionPolicy: deletionPolicy as DeletionPolicy,
    resyncSeconds: positiveInt(values, "reconcile-default-resync-seconds"),
    resyncSecondsByKind,
    maxConcurrentSyncs: positiveInt(values, "reconcile-default-max-concurrent-syncs"),
    maxConcurrentSyncsByKind,
    metricsAddr: address(values, "metrics-addr"),
    healthAddr: address(values, "healthz-addr"),
    leaderElection: booleanFlag(values, "enable-leader-election"),
    leaseName: stringFlag(values, "leader-election-name") ?? "crossrole-leader",
    ...(booleanFlag(values, "enable-sharding")
      ? {
          sharding: {
            member: stringFlag(values, "shard-member") ?? io.env["POD_NAME"] ?? hostname(),
            leaseDurationMs: positiveInt(values, "shard-lease-duration-seconds") * 1000,
          },
        }
      : {}),
    stsRateLimit: { ratePerSecond: positiveInt(values, "sts-qps"), burst: positiveInt(values, "sts-burst") },
    awsRateLimits: {
      default: {
        ratePerSecond: positiveInt(values, "aws-api-qps"),
        burst: positiveInt(values, "aws-api-burst"),
      },
      byService: serviceRateLimits.value,
    },
    createIntentWindowMs,
    allowCrossNamespaceReferences,
    ungrantedPrincipals,
    ...(leaseNamespace === undefined ? {} : { leaseNamespace }),
    ...(awsRequestTimeoutMs === undefined ? {} : { awsRequestTimeoutMs }),
    ...(identityEndpoint === undefined ? {} : { identityEndpoint }),
    defaultTags: resourceTags.tags,
    ...(watchSelectors === undefined ? {} : { watchSelectors }),
    reconcileKinds,
  }).catch((err: unknown) => {
    // A contradiction between the configuration and AWS is the user's to fix: say it as such.
    if (err instanceof ControllerAccountError) throw badInput(`${commandName}: ${err.message}`);
    throw err;
  });
  memory?.mark("started");
  memory?.follow(() => running.manager.hasSynced());
  running.manager.handleSignals();
  try {
    await running.manager.done;
  } catch (err) {
    logger.error({ err: err instanceof Error ? err.message : String(err) }, "controller stopped");
    await running.credentials.close();
    return 1;
  }
  await running.credentials.close();
  return 0;
}
