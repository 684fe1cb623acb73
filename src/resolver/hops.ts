// Chain hops as they will be sent to STS, with readable default session names.
//
// Default RoleSessionName (DESIGN §4: "controller + namespace or identity name"): every hop is
// named after the object that granted it — `crossrole-<identity>`, `crossrole-<selector>`,
// `crossrole-<CARM key>` — so an auditor reading CloudTrail sees which grant was used, and all
// the namespaces that share a grant share one cached session (one AssumeRole per role, not per
// namespace). The namespace itself reaches CloudTrail through tenantSessionTags
// (kubernetes-namespace), which is opt-in because it makes sessions per resource.

import { defaultSessionName } from "./session-name.ts";
import type { IdentityConfig } from "./snapshot-types.ts";
import type { ChainHop, HopParameters } from "./types.ts";

export const controllerHop: ChainHop = { kind: "AWSControllerIdentity", name: "default", parameters: {} };

function withSessionName(parameters: HopParameters, explicit: boolean, fallback: string): HopParameters {
  return explicit ? parameters : { ...parameters, sessionName: defaultSessionName(fallback) };
}

/** The hop for one identity object. */
export function identityHop(identity: IdentityConfig): ChainHop {
  const hop: { -readonly [K in keyof ChainHop]: ChainHop[K] } = {
    kind: identity.kind,
    name: identity.name,
    parameters: identity.parameters,
  };
  if (identity.namespace !== undefined) hop.namespace = identity.namespace;
  if (identity.resourceVersion !== "") hop.resourceVersion = identity.resourceVersion;
  if (identity.roleARN !== undefined) {
    hop.roleARN = identity.roleARN;
    hop.parameters = withSessionName(identity.parameters, identity.explicitSessionName, identity.name);
  }
  return hop;
}

/** The hop for a role chosen by an IAMRoleSelector or a CARM map (always the final hop). */
export function mappedRoleHop(
  kind: "IAMRoleSelector" | "CARM",
  name: string,
  roleARN: string,
  parameters: HopParameters,
  explicitSessionName: boolean,
  resourceVersion?: string,
): ChainHop {
  const hop: ChainHop = {
    kind,
    name,
    roleARN,
    parameters: withSessionName(parameters, explicitSessionName, name),
  };
  return resourceVersion === undefined || resourceVersion === "" ? hop : { ...hop, resourceVersion };
}
