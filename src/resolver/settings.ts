// Controller settings that shape decisions: defaults, the `--feature-gates` parser and the
// startup validation ACK does (IAMRoleSelector and CARM are mutually exclusive).
// Pure: returns errors as values so the CLI can print them and exit 2.

import { isAccountId, isRegion } from "../api/validation.ts";
import type { FeatureGateName, FeatureGates, Settings } from "./types.ts";

export const featureGateNames: readonly FeatureGateName[] = [
  "IAMRoleSelector",
  "TeamLevelCARM",
  "ServiceLevelCARM",
  "ResourceLevelCARM",
];

/** Every gate off, as ACK ships them. */
export const defaultFeatureGates: FeatureGates = {
  IAMRoleSelector: false,
  TeamLevelCARM: false,
  ServiceLevelCARM: false,
  ResourceLevelCARM: false,
};

export const defaultSystemNamespace = "ack-system";

/** What `crossrole run` / `crossrole explain` use when no flag says otherwise. */
export const defaultSettings: Settings = {
  featureGates: defaultFeatureGates,
  enableCARM: true,
  defaultRegion: null,
  defaultEndpoint: null,
  controllerAccount: null,
  systemNamespace: defaultSystemNamespace,
  accountDriftPolicy: "block",
};

/** A settings error: which flag, what is wrong, how to fix it. */
export interface SettingsError {
  readonly flag: string;
  readonly message: string;
}

export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly SettingsError[] };

function isGateName(name: string): name is FeatureGateName {
  return (featureGateNames as readonly string[]).includes(name);
}

/**
 * Parses `--feature-gates` as Kubernetes components do: `Name=bool` pairs separated by commas,
 * whitespace around items ignored, later duplicates win. Gates not mentioned keep `base`.
 * Unknown gate names and non-boolean values are errors naming the offending item, because a
 * typo in a security switch must never be silently ignored.
 */
export function parseFeatureGates(
  text: string,
  base: FeatureGates = defaultFeatureGates,
): ParseResult<FeatureGates> {
  const gates: Record<FeatureGateName, boolean> = { ...base };
  const errors: SettingsError[] = [];
  for (const rawItem of text.split(",")) {
    const item = rawItem.trim();
    if (item === "") continue;
    const eq = item.indexOf("=");
    if (eq < 0) {
      errors.push({
        flag: "--feature-gates",
        message: `"${item}" is not of the form Name=true|false (known gates: ${featureGateNames.join(", ")})`,
      });
      continue;
    }
    const name = item.slice(0, eq).trim();
    const value = item
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (!isGateName(name)) {
      errors.push({
        flag: "--feature-gates",
        message: `unknown feature gate "${name}" (known gates: ${featureGateNames.join(", ")})`,
      });
      continue;
    }
    if (value !== "true" && value !== "false") {
      errors.push({
        flag: "--feature-gates",
        message: `feature gate ${name} has value "${item.slice(eq + 1).trim()}"; use true or false`,
      });
      continue;
    }
    gates[name] = value === "true";
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: gates };
}

/**
 * Checks a complete Settings value. The one cross-flag rule comes from ACK: the IAMRoleSelector
 * gate replaces CARM, so starting with both on is refused with an error naming both flags.
 */
export function validateSettings(settings: Settings): readonly SettingsError[] {
  const errors: SettingsError[] = [];
  const gates = settings.featureGates as Readonly<Record<string, unknown>>;
  for (const name of Object.keys(gates).sort()) {
    if (!isGateName(name)) {
      errors.push({ flag: "--feature-gates", message: `unknown feature gate "${name}"` });
    } else if (typeof gates[name] !== "boolean") {
      errors.push({ flag: "--feature-gates", message: `feature gate ${name} must be true or false` });
    }
  }
  if (settings.featureGates.IAMRoleSelector && settings.enableCARM) {
    errors.push({
      flag: "--feature-gates",
      message:
        "--feature-gates IAMRoleSelector=true cannot be combined with --enable-carm=true: IAMRoleSelector mode replaces CARM; set --enable-carm=false or turn the gate off",
    });
  }
  if (settings.controllerAccount !== null && !isAccountId(settings.controllerAccount)) {
    errors.push({
      flag: "--controller-account",
      message: `"${settings.controllerAccount}" is not a 12-digit AWS account ID`,
    });
  }
  if (settings.defaultRegion !== null && !isRegion(settings.defaultRegion)) {
    errors.push({
      flag: "--aws-region",
      message: `"${settings.defaultRegion}" is not an AWS region name (e.g. eu-west-1)`,
    });
  }
  if (settings.defaultEndpoint !== null && !URL.canParse(settings.defaultEndpoint)) {
    errors.push({ flag: "--aws-endpoint-url", message: `"${settings.defaultEndpoint}" is not a URL` });
  }
  if (settings.systemNamespace === "") {
    errors.push({ flag: "--system-namespace", message: "the system namespace must not be empty" });
  }
  if (settings.accountDriftPolicy !== "block" && settings.accountDriftPolicy !== "recreate") {
    errors.push({
      flag: "--account-drift-policy",
      message: `"${String(settings.accountDriftPolicy)}" is not one of block, recreate`,
    });
  }
  return errors;
}
