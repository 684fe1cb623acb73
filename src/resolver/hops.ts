// Chain hops as they will be sent to STS, with readable default session names.
//
// Default RoleSessionName (DESIGN §4): the hop AWS sees acting on the resource is named after
// the namespace (`crossrole-<namespace>`), which is what an auditor reading CloudTrail asks
// about. Intermediate hops in an identity chain are shared by every namespace that uses the
// identity, so they are named after the identity (`crossrole-<identity>`), which also lets
// all those namespaces share one cached session for the intermediate role.

import { defaultSessionName } from "./session-name.ts";
import type { IdentityConfig } from "./snapshot-types.ts";
import type { ChainHop, HopParameters } from "./types.ts";

export const controllerHop: ChainHop = { kind: "AWSControllerIdentity", name: "default", parameters: {} };

function withSessionName(parameters: HopParameters, explicit: boolean, fallback: string): HopParameters {
  return explicit ? parameters : { ...parameters, sessionName: defaultSessionName(fallback) };
}

/** The hop for one identity object; `final` when it is the last hop (the one acting on AWS). */
export function identityHop(identity: IdentityConfig, namespace: string, final: boolean): ChainHop {
  const hop: { -readonly [K in keyof ChainHop]: ChainHop[K] } = {
    kind: identity.kind,
    name: identity.name,
    parameters: identity.parameters,
  };
  if (identity.namespace !== undefined) hop.namespace = identity.namespace;
  if (identity.resourceVersion !== "") hop.resourceVersion = identity.resourceVersion;
  if (identity.roleARN !== undefined) {
    hop.roleARN = identity.roleARN;
    hop.parameters = withSessionName(
      identity.parameters,
      identity.explicitSessionName,
      final ? namespace : identity.name,
    );
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
  namespace: string,
  resourceVersion?: string,
): ChainHop {
  const hop: ChainHop = {
    kind,
    name,
    roleARN,
    parameters: withSessionName(parameters, explicitSessionName, namespace),
  };
  return resourceVersion === undefined || resourceVersion === "" ? hop : { ...hop, resourceVersion };
}
