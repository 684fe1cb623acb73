// Which AWS accounts an IAM policy document lets in: the principals of its Allow statements (a
// role's trust policy, a resource policy). What crossrole compares with the accounts a namespace
// is granted (src/controller/reconcile/principals.ts). Pure.
//
// Read as IAM reads them: `Principal: "*"` or `{AWS: "*"}` is every account (unless a Condition
// narrows it, which crossrole cannot judge: not counted); `{AWS: "123456789012"}` or an ARN
// `arn:aws:iam::123456789012:root|role/...|user/...` (or STS's assumed-role) names that account;
// a `Federated` identity provider ARN names its account; services and web identity providers name
// none; `NotPrincipal` with Allow lets in everyone but those listed: every account. Deny
// statements let no one in.

export interface PrincipalAccounts {
  /** The accounts named, sorted, each once. */
  readonly accounts: readonly string[];
  /** An Allow statement lets every AWS account in (`*` without a condition, or NotPrincipal). */
  readonly everyone: boolean;
}

const none: PrincipalAccounts = { accounts: [], everyone: false };

/** The account an AWS principal names: a 12-digit ID or an IAM/STS ARN; undefined for others. */
function accountOf(principal: string): string | undefined {
  if (/^\d{12}$/.test(principal)) return principal;
  const arn = /^arn:aws[a-z-]*:(?:iam|sts)::(\d{12}):/.exec(principal);
  return arn?.[1];
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** The accounts `document` (JSON text) lets in; none when it is not a policy document. */
export function principalAccounts(document: unknown): PrincipalAccounts {
  if (typeof document !== "string") return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch {
    return none;
  }
  if (typeof parsed !== "object" || parsed === null) return none;
  const accounts = new Set<string>();
  let everyone = false;
  for (const s of asList((parsed as Record<string, unknown>)["Statement"])) {
    if (typeof s !== "object" || s === null) continue;
    const statement = s as Record<string, unknown>;
    if (statement["Effect"] !== "Allow") continue;
    const conditioned = statement["Condition"] !== undefined;
    if (statement["NotPrincipal"] !== undefined) {
      everyone ||= !conditioned;
      continue;
    }
    const principal = statement["Principal"];
    if (principal === "*") {
      everyone ||= !conditioned;
      continue;
    }
    if (typeof principal !== "object" || principal === null) continue;
    const named = principal as Record<string, unknown>;
    for (const p of [...asList(named["AWS"]), ...asList(named["Federated"])]) {
      if (typeof p !== "string") continue;
      if (p === "*") everyone ||= !conditioned;
      const account = accountOf(p);
      if (account !== undefined) accounts.add(account);
    }
  }
  return { accounts: [...accounts].sort(), everyone };
}
