// The controller's own account, as STS says it is (DESIGN §3.1.5). Resources on the controller's
// own credentials are recorded, looked up and created in it; an account named by a flag that
// disagrees with STS put them in the record of an account they were never in (every read then
// missed, and a Topic was created again and again). So the flag is only a claim: STS decides,
// and a disagreement stops the controller before it acts, naming both accounts and the fix. Pure.

/** What `crossrole run` was told and what STS answered. */
export interface AccountClaim {
  /** --controller-account (chart value aws.controllerAccount), or null when not given. */
  readonly flag: string | null;
  readonly sts: { readonly account: string; readonly arn: string };
}

export type AccountCheck =
  | { readonly ok: true; readonly account: string }
  | { readonly ok: false; readonly message: string };

export function checkControllerAccount(c: AccountClaim): AccountCheck {
  if (c.flag === null || c.flag === c.sts.account) return { ok: true, account: c.sts.account };
  return {
    ok: false,
    message: `the controller was told it acts in account ${c.flag} (--controller-account, chart value aws.controllerAccount), but sts:GetCallerIdentity says its credentials (${c.sts.arn}) are in account ${c.sts.account}; resources on the controller's own identity would be recorded in the wrong account. Fix: set --controller-account=${c.sts.account}, or leave it out (STS tells), or give the controller credentials of account ${c.flag}`,
  };
}
