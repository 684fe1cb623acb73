// Which resource an AWS call is made for, and as whom. SDK clients are shared by every resource
// that acts with the same credentials (client-pool.ts), so the client cannot know; the reconcile
// does. services/call-context.ts's awsCall runs each call inside the subject the reconcile
// passes, and the SDK middleware (aws-call-observer.ts) reads it there for the audit line.
import { AsyncLocalStorage } from "node:async_hooks";

export interface AwsCallSubject {
  /** The Kubernetes resource: kind, namespace, name. */
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The account the call acts in. */
  readonly account: string;
  /** The role assumed last; null for the controller's own or a static identity's credentials. */
  readonly roleARN: string | null;
  /** The identity object the chain ends with ("AWSRoleIdentity/shop"), when it names one. */
  readonly identity: string | null;
}

const current = new AsyncLocalStorage<AwsCallSubject>();

/** Runs `fn` (which makes AWS calls) on behalf of `subject`. */
export function withCallSubject<T>(subject: AwsCallSubject | undefined, fn: () => T): T {
  return subject === undefined ? fn() : current.run(subject, fn);
}

/** The subject of the AWS call being made, if it was made on behalf of one. */
export function currentCallSubject(): AwsCallSubject | undefined {
  return current.getStore();
}
