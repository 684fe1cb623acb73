// Every AWS call crossrole makes, STS included, seen once in one SDK middleware that the client
// pool adds to each client it builds (client-pool.ts):
//   - counted under ACK's names, labels and help texts (aws-controllers-k8s/runtime
//     pkg/metrics/metrics.go), so dashboards and alerts written for ACK's controllers work:
//       ack_outbound_api_requests_total{service, op_type, op_id, account, role}
//       ack_outbound_api_requests_error_total{service, op_id, status_code, account, role}
//     `service` is the client's service ("s3", "sqs", "sts"), `op_id` the SDK operation
//     ("CreateBucket"), `op_type` ACK's (ack-op-type.ts). One count per call as the caller
//     sees it (the SDK's own retries inside it are not separate calls, as in ACK). `account` and
//     `role` are crossrole's: the account the call acts in and the role's name (account-labels.ts),
//     which a multi-account controller needs to say who throttles or is denied. Every failed
//     call is an error, expected ones (NotFound on a read) included, as in ACK. `status_code`
//     is the HTTP status AWS answered (404, 400, 503), as the help text says, and "-1" when no
//     answer came (timeout, connection refused), as ACK records an error without one.
//   - each write (create, update, delete, attributes, tags) logged at info, once, after AWS
//     answered: the resource it was for, account, role, region and the call ("s3:CreateBucket")
//     — the audit trail to match CloudTrail against. Reads are not logged at info.
import type {
  HandlerExecutionContext,
  InitializeHandler,
  InitializeHandlerArguments,
  MetadataBearer,
} from "@smithy/types";
import type { Logger } from "pino";
import { Counter, type Registry } from "prom-client";
import { BoundedLabel, noAccount, roleLabel } from "./account-labels.ts";
import { ackOpType, isWrite } from "./ack-op-type.ts";
import { type AwsCallSubject, currentCallSubject } from "./aws-call-subject.ts";

/** What the pool needs of an SDK client to observe it (every AWS SDK v3 client has it). */
export interface ObservableClient {
  readonly middlewareStack: {
    add(
      middleware: (
        next: InitializeHandler<object, MetadataBearer>,
        context: HandlerExecutionContext,
      ) => InitializeHandler<object, MetadataBearer>,
      options: { step: "initialize"; name: string; priority: "high" },
    ): void;
  };
}

/** Adds the observing middleware to a client of `service` built for `region`. */
export type AwsCallObserver = (client: ObservableClient, service: string, region: string) => void;

export interface AwsCallMetrics {
  readonly requests: Counter<"service" | "op_type" | "op_id" | "account" | "role">;
  readonly errors: Counter<"service" | "op_id" | "status_code" | "account" | "role">;
  /** The bounded values of the account and role labels (account-labels.ts). */
  readonly accounts: BoundedLabel;
  readonly roles: BoundedLabel;
}

export function createAwsCallMetrics(registry: Registry): AwsCallMetrics {
  const registers = [registry];
  return {
    requests: new Counter({
      name: "ack_outbound_api_requests_total",
      help: "Total number of outbound AWS API requests made by the controller.",
      labelNames: ["service", "op_type", "op_id", "account", "role"] as const,
      registers,
    }),
    errors: new Counter({
      name: "ack_outbound_api_requests_error_total",
      help: "Total number of outbound AWS API requests made by the controller that resulted in a 4XX or 5XX HTTP status code.",
      labelNames: ["service", "op_id", "status_code", "account", "role"] as const,
      registers,
    }),
    accounts: new BoundedLabel(),
    roles: new BoundedLabel(),
  };
}

/** The HTTP status AWS answered a failed call with, or "-1" when no answer came. */
export function statusCodeOf(err: unknown): string {
  const e = err as { $metadata?: { httpStatusCode?: number }; $response?: { statusCode?: number } } | null;
  const code = e?.$metadata?.httpStatusCode ?? e?.$response?.statusCode;
  return typeof code === "number" && code > 0 ? String(code) : "-1";
}

/** The audit line's fields for one write. */
export function auditFields(
  call: { service: string; operation: string; region: string },
  subject: AwsCallSubject | undefined,
  err: unknown,
): Record<string, unknown> {
  return {
    event: "aws.write",
    call: `${call.service}:${call.operation}`,
    resource: subject ? `${subject.kind} ${subject.namespace}/${subject.name}` : null,
    account: subject?.account ?? null,
    roleARN: subject?.roleARN ?? null,
    identity: subject?.identity ?? null,
    region: call.region,
    result: err === undefined ? "ok" : "error",
    ...(err === undefined
      ? {}
      : {
          statusCode: statusCodeOf(err),
          // AWS's code only, never its message: a message can echo what the call carried (RDS
          // quotes a refused password). The reconcile reports the failure, redacted, on its own.
          errorCode: err instanceof Error ? err.name : "unknown",
        }),
  };
}

/** `readMany`: the operations ACK counts as READ_MANY (ack-op-type.ts). */
export function awsCallObserver(
  metrics: AwsCallMetrics,
  logger: Pick<Logger, "info">,
  readMany: ReadonlySet<string> = new Set(),
): AwsCallObserver {
  return (client, service, region) => {
    client.middlewareStack.add(
      (next, context) => async (args: InitializeHandlerArguments<object>) => {
        const operation = (context.commandName ?? "Unknown").replace(/Command$/, "");
        const opType = ackOpType(service, operation, readMany);
        const subject = currentCallSubject();
        // Which account, as which role: crossrole's labels beside ACK's (account-labels.ts).
        const who = {
          account: metrics.accounts.of(subject?.account ?? noAccount),
          role: metrics.roles.of(roleLabel(subject?.roleARN)),
        };
        metrics.requests.inc({ service, op_type: opType, op_id: operation, ...who });
        const write = isWrite(opType);
        try {
          const out = await next(args);
          if (write)
            logger.info(auditFields({ service, operation, region }, subject, undefined), "aws write");
          return out;
        } catch (err) {
          metrics.errors.inc({ service, op_id: operation, status_code: statusCodeOf(err), ...who });
          if (write)
            logger.info(auditFields({ service, operation, region }, subject, err), "aws write failed");
          throw err;
        }
      },
      // Outermost: once per call as the caller made it, around the SDK's retries.
      { step: "initialize", name: "crossroleAwsCallObserver", priority: "high" },
    );
  };
}
