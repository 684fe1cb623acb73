// The two controller configurations the migration compares: the CARM mode the controller runs
// in today, and the IAMRoleSelector mode it is switched to (DESIGN §3.1 step 2: the gate on,
// CARM off, as ACK requires). Everything else (region, endpoint, account, drift policy) stays.

import type { Settings } from "../resolver/types.ts";

/** Why `settings` is not a CARM-mode configuration (nothing to migrate), or null. */
export function notCarmMode(settings: Settings): string | null {
  if (settings.featureGates.IAMRoleSelector) {
    return "the controller already runs in IAMRoleSelector mode (--feature-gates IAMRoleSelector=true): CARM ConfigMaps choose nothing, so there is nothing to migrate";
  }
  if (!settings.enableCARM) {
    return "CARM is disabled (--enable-carm=false): the CARM ConfigMaps choose nothing, so there is nothing to migrate";
  }
  return null;
}

/** The settings after the switch: `--feature-gates IAMRoleSelector=true --enable-carm=false`. */
export function selectorModeSettings(carm: Settings): Settings {
  return {
    ...carm,
    featureGates: { ...carm.featureGates, IAMRoleSelector: true },
    enableCARM: false,
  };
}
