// Credentials for exactly the decided chain, the account they act in checked against the one
// status recorded, and where the spec's object is in AWS (its Target): shared by converge and
// finalize, both of which then work on that object under its lock.
import type { CallContext } from "../../services/call-context.ts";
import { checkAccount, type Target } from "../reconcile-plan.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import { errorText } from "./failure.ts";
import { failed, isOutcome, type Outcome } from "./result.ts";

/** Credentials and the account they act in. */
export interface Connection<Client> {
  readonly client: Client;
  readonly account: string;
  /** The attempt's call context, naming the resource, account and role its AWS calls act for. */
  readonly call: CallContext;
}

/** Credentials for exactly the decided chain, and the account they act in. */
async function connect<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<Connection<Client> | Outcome> {
  try {
    const client = await env.module.client(env.credentials, a.decision, a.ref);
    const account = a.decision.account ?? (await env.credentials.callerIdentity(a.decision, a.ref)).account;
    const last = a.decision.chain.at(-1);
    const subject = {
      ...a.ref,
      account,
      roleARN: a.decision.roleARN,
      identity: last ? `${last.kind}/${last.name}` : null,
    };
    return { client, account, call: { ...a.call, subject } };
  } catch (err) {
    return failed(
      { kind: "recoverable", reason: "CredentialsUnavailable", message: errorText(env, err) },
      "backoff",
      err,
    );
  }
}

/**
 * connect, then the account it acts in against the one status recorded (checkAccount): a
 * mismatch blocks, or with --account-drift-policy=recreate is followed with a Warning Event
 * (checkAccount never lets a delete follow: the recorded object is the one to delete).
 */
export async function connectInRecordedAccount<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  deleting: boolean,
): Promise<Connection<Client> | Outcome> {
  const conn = await connect(env, a);
  if (isOutcome(conn)) return conn;
  return accountDrift(env, a, a.obj.status?.ackResourceMetadata, conn.account, deleting) ?? conn;
}

/**
 * A recorded account (status, or a create intent) against the one the decided credentials act in
 * (checkAccount): the failure when it blocks; with --account-drift-policy=recreate a Warning
 * Event and nothing to stop for.
 */
export function accountDrift<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  recorded: Parameters<typeof checkAccount>[0],
  account: string,
  deleting: boolean,
): Outcome | undefined {
  const check = checkAccount(recorded, account, env.settings.accountDriftPolicy, deleting);
  if (check.do === "block") return failed(check.state);
  if (check.do === "follow") env.store.event(a.obj, "Warning", "AccountDrift", check.event);
  return undefined;
}

/**
 * Where the spec's object is in AWS: its name, in the account and region decided. A kind named by
 * an ID AWS assigns (a KMS key) is named by its resource (`namespace/name`) instead: the one name
 * its intent, lock and messages keep from before its create to after.
 */
export function targetOf<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Pick<Attempt, "owner">,
  spec: Spec,
  account: string,
  region: string,
): Target {
  const assigned = env.module.assigned !== undefined;
  // Messages name the kind as users write it (DBInstance, not "dbinstance" or "Dbinstance").
  return {
    noun: env.kindName,
    name: assigned ? `${a.owner.namespace}/${a.owner.name}` : env.module.identifier(spec),
    account,
    region,
    nameField: assigned ? "metadata.name" : env.module.identifierField,
  };
}

/**
 * The per-object lock's key (DESIGN §3.5, one writer per AWS object): service, account, name; for
 * a kind named by an ID AWS assigns, the kind and its resource (each resource has its own object).
 */
export function lockKey<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  target: Target,
): string {
  const own = env.module.assigned === undefined ? "" : `${env.kindName}:`;
  return `${env.module.kind.service}/${target.account}/${own}${target.name}`;
}
