// The proof: every subject decided by the resolver in both modes — CARM with today's objects,
// IAMRoleSelector mode with today's objects plus the generated selectors — and compared on what
// decides where a resource lives and how it is reached: outcome, role, account, region,
// endpoint and the external ID of the final AssumeRole.

import { resolve } from "../resolver/resolve.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, ResourceObject, Settings } from "../resolver/types.ts";
import { type ComparedField, comparedFields, type ModeDecision } from "./types.ts";

export interface Mode {
  readonly snapshot: Snapshot;
  readonly settings: Settings;
}

function modeDecision(decision: Decision): ModeDecision {
  return {
    outcome: decision.outcome,
    source: decision.source,
    roleARN: decision.roleARN,
    account: decision.account,
    region: decision.region,
    endpoint: decision.endpoint,
    externalID: decision.chain.at(-1)?.parameters.externalID ?? null,
    selector: decision.selector?.name ?? null,
    message: decision.message,
  };
}

export function decide(resource: ResourceObject, mode: Mode): ModeDecision {
  return modeDecision(resolve(resource, resource.metadata.namespace ?? "", mode.snapshot, mode.settings));
}

/** The compared fields on which `a` and `b` differ, in comparedFields order. */
export function differences(a: ModeDecision, b: ModeDecision): ComparedField[] {
  return comparedFields.filter((field) => a[field] !== b[field]);
}
