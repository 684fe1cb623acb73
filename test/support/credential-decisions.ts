// Builds resolver Decisions for tests and the benchmark: a `use` decision over a given chain,
// with the fields the credentials module does not read filled with plain values.
import type { ChainHop, Decision, HopParameters } from "../../src/resolver/types.ts";

export function useDecision(
  chain: readonly ChainHop[],
  opts: { region?: string | null; endpoint?: string | null; account?: string | null } = {},
): Decision {
  const last = chain[chain.length - 1];
  return {
    outcome: "use",
    source: "identityRef",
    reason: "Selected",
    roleARN: last?.roleARN ?? null,
    account: opts.account ?? last?.roleARN?.split(":")[4] ?? null,
    region: opts.region === undefined ? "us-east-1" : opts.region,
    endpoint: opts.endpoint ?? null,
    selector: null,
    chain,
    message: "test decision",
    trace: [],
    warnings: [],
    drift: null,
  };
}

export const controllerHop: ChainHop = { kind: "AWSControllerIdentity", name: "default", parameters: {} };

export function roleHop(name: string, roleARN: string, parameters: HopParameters = {}): ChainHop {
  return { kind: "AWSRoleIdentity", name, roleARN, parameters };
}

export function staticHop(name: string, secretRef: string): ChainHop {
  return { kind: "AWSStaticIdentity", name, parameters: { secretRef } };
}

export function serviceAccountHop(
  namespace: string,
  name: string,
  roleARN: string,
  parameters: HopParameters & { serviceAccountName: string },
): ChainHop {
  return { kind: "AWSServiceAccountIdentity", name, namespace, roleARN, parameters };
}
