// Policy documents letting in accounts a namespace is not granted: for each spec field holding one
// (ServiceModule.principalFields), the accounts its Allow principals name that are neither the
// resource's own nor among the namespace's reaches (namespace-accounts.ts), or every account.
// What the reconciler warns of or refuses (src/controller/reconcile/principals.ts) and `explain`
// lists as a problem. Pure.
import { principalAccounts } from "../services/policy-principals.ts";
import type { NamespaceAccounts } from "./namespace-accounts.ts";

export interface UngrantedPrincipals {
  /** The spec field (`assumeRolePolicyDocument`). */
  readonly field: string;
  /** Accounts named there the namespace is not granted, sorted. */
  readonly accounts: readonly string[];
  /** It lets every account in (`*` with no condition, NotPrincipal). */
  readonly everyone: boolean;
  /**
   * Certain: every account is let in, or the namespace's accounts and the resource's own are all
   * known. Not certain where one is known only from STS (static keys): a named account may be that
   * one, so it is said, never refused.
   */
  readonly certain: boolean;
  /** Why, naming the field, the accounts, the namespace and the accounts it is granted. */
  readonly why: string;
  readonly fix: string;
}

export function ungrantedPrincipals(
  spec: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  namespace: string,
  granted: NamespaceAccounts,
  /** The account the resource is placed in: always its own to trust. */
  ownAccount: string | null,
): UngrantedPrincipals[] {
  const out: UngrantedPrincipals[] = [];
  for (const field of fields) {
    const named = principalAccounts(spec[field]);
    const accounts = named.accounts.filter((acc) => acc !== ownAccount && !granted.accounts.includes(acc));
    if (accounts.length === 0 && !named.everyone) continue;
    const lets = [
      ...(named.everyone ? ['every AWS account (Principal "*" with no condition)'] : []),
      ...(accounts.length === 0 ? [] : [`account${accounts.length > 1 ? "s" : ""} ${accounts.join(", ")}`]),
    ].join(" and ");
    const reaches = granted.accounts.length === 0 ? "none" : granted.accounts.join(", ");
    const several = accounts.length + (named.everyone ? 1 : 0) > 1;
    out.push({
      field,
      accounts,
      everyone: named.everyone,
      certain: named.everyone || (!granted.unknown && ownAccount !== null),
      why: `spec.${field} lets in ${lets}, which namespace ${namespace} is not granted (the accounts it may act in: ${reaches}${granted.unknown ? ", and one only STS can name" : ""})`,
      fix: `remove ${several ? "them" : "it"} from spec.${field}, or have an administrator grant namespace ${namespace} ${accounts.length > 1 ? "those accounts" : "that account"}`,
    });
  }
  return out;
}
