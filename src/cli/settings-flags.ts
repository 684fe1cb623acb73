// The controller-settings flags, shared by every command that resolves identities (`explain`
// now, `run` later) so that both read the same flags the same way.
import {
  defaultSettings,
  parseFeatureGates,
  type SettingsError,
  validateSettings,
} from "../resolver/settings.ts";
import type { Settings } from "../resolver/types.ts";
import { booleanFlag, type FlagSpec, type FlagValues, stringFlag } from "./args.ts";
import { badInput } from "./errors.ts";

export const settingsFlags: readonly FlagSpec[] = [
  {
    name: "feature-gates",
    type: "string",
    value: "<Name=bool,...>",
    help: "Feature gates: IAMRoleSelector, TeamLevelCARM, ServiceLevelCARM, ResourceLevelCARM (all off by default).",
  },
  {
    name: "enable-carm",
    type: "boolean",
    default: defaultSettings.enableCARM,
    help: "Cross-account resource management via the CARM ConfigMaps; --enable-carm=false turns it off.",
  },
  {
    name: "aws-region",
    type: "string",
    value: "<region>",
    help: "Default region (else AWS_REGION, else AWS_DEFAULT_REGION).",
  },
  {
    name: "aws-endpoint-url",
    type: "string",
    value: "<url>",
    help: "Default AWS endpoint (also used for STS).",
  },
  {
    name: "controller-account",
    type: "string",
    value: "<account-id>",
    help: "The controller's own AWS account (online, else sts:GetCallerIdentity tells).",
  },
  {
    name: "system-namespace",
    type: "string",
    value: "<namespace>",
    default: defaultSettings.systemNamespace,
    help: "Namespace of the controller and its CARM ConfigMaps.",
  },
  {
    name: "account-drift-policy",
    type: "string",
    value: "<block|recreate>",
    default: defaultSettings.accountDriftPolicy,
    help: "What to do when the recorded account differs from the role's account.",
  },
];

/**
 * Builds Settings from the flags above. `controllerAccount` is left as given (null when the
 * flag is absent); the caller may fill it in online. Any invalid value is a bad-input error
 * naming the flag and the fix.
 */
export function settingsFromFlags(
  values: FlagValues,
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const gatesText = stringFlag(values, "feature-gates");
  const gates =
    gatesText === undefined
      ? { ok: true as const, value: defaultSettings.featureGates }
      : parseFeatureGates(gatesText);
  if (!gates.ok) {
    throw badInput(gates.errors.map(settingsErrorText).join("\n"));
  }
  const policy = stringFlag(values, "account-drift-policy") ?? defaultSettings.accountDriftPolicy;
  const settings: Settings = {
    featureGates: gates.value,
    enableCARM:
      values["enable-carm"] === undefined ? defaultSettings.enableCARM : booleanFlag(values, "enable-carm"),
    defaultRegion:
      stringFlag(values, "aws-region") ??
      nonEmpty(env["AWS_REGION"]) ??
      // The AWS CLI's older name, which many Pod specs and CI systems still set.
      nonEmpty(env["AWS_DEFAULT_REGION"]) ??
      defaultSettings.defaultRegion,
    defaultEndpoint: stringFlag(values, "aws-endpoint-url") ?? defaultSettings.defaultEndpoint,
    controllerAccount: stringFlag(values, "controller-account") ?? null,
    systemNamespace: stringFlag(values, "system-namespace") ?? defaultSettings.systemNamespace,
    // validateSettings rejects anything else with a message naming the flag.
    accountDriftPolicy: policy as Settings["accountDriftPolicy"],
  };
  const errors = validateSettings(settings);
  if (errors.length > 0) {
    throw badInput(errors.map(settingsErrorText).join("\n"));
  }
  return settings;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function settingsErrorText(error: SettingsError): string {
  // Some messages already start with the flag they are about.
  return error.message.startsWith("--") ? `${error.message}.` : `${error.flag}: ${error.message}.`;
}
