// What each identity rule of DESIGN §3.1 returns to the orchestrator: it chose an identity,
// it refused (deny / wait / conflict), or it did not apply and the next rule is consulted.

import type { Refusal, Trace } from "./decision.ts";
import type { ResourceInfo } from "./resource-info.ts";
import type { NamespaceConfig, Snapshot } from "./snapshot-types.ts";
import type { ChainHop, DecisionSource, Settings } from "./types.ts";

/** Where the account a decision lands in comes from (DESIGN §3.1 step 5). */
export type AccountOrigin =
  /** The final role ARN's account. */
  | { readonly from: "role"; readonly account: string }
  /** The controller's own credentials: settings.controllerAccount (sts:GetCallerIdentity). */
  | { readonly from: "controller" }
  /** Static keys: only sts:GetCallerIdentity can tell. */
  | { readonly from: "static" };

export interface Chosen {
  readonly kind: "chosen";
  readonly source: DecisionSource;
  /** Base credentials first, the hop AWS sees last. */
  readonly chain: readonly ChainHop[];
  readonly roleARN: string | null;
  readonly account: AccountOrigin;
  readonly selector: { readonly name: string; readonly resourceVersion: string } | null;
  /** `team-id/<team>/endpoint` when the team map chose the role (DESIGN §3.1 step 6). */
  readonly teamEndpoint: { readonly value: string; readonly key: string } | null;
  /** A short phrase for the decision message, e.g. "IAMRoleSelector team-a (resourceVersion 7)". */
  readonly via: string;
}

export type Choice = Chosen | ({ readonly kind: "refused" } & Refusal) | { readonly kind: "pass" };

export const pass: Choice = { kind: "pass" };

export function refused(r: Refusal): Choice {
  return { kind: "refused", ...r };
}

/** Everything a rule may read; `trace` is the one thing it writes. */
export interface Context {
  readonly resource: ResourceInfo;
  readonly namespace: NamespaceConfig;
  readonly snapshot: Snapshot;
  readonly settings: Settings;
  readonly trace: Trace;
}
