import assert from "node:assert/strict";
import { test } from "node:test";
import { Registry } from "prom-client";
import { awsCallObserver, createAwsCallMetrics, type ObservableClient } from "./aws-call-observer.ts";
import { withCallSubject } from "./aws-call-subject.ts";

type Middleware = Parameters<ObservableClient["middlewareStack"]["add"]>[0];

/** The observer's middleware on a client of `service`, and what it counted and logged. */
function observed(service: string) {
  const registry = new Registry();
  const lines: Record<string, unknown>[] = [];
  let middleware: Middleware | undefined;
  const client: ObservableClient = {
    middlewareStack: {
      add: (mw) => {
        middleware = mw;
      },
    },
  };
  awsCallObserver(createAwsCallMetrics(registry), {
    info: (fields: Record<string, unknown>) => void lines.push(fields),
  } as never)(client, service, "eu-west-1");
  const call = (operation: string, answer: () => Promise<unknown>) =>
    middleware!(async () => ({ output: (await answer()) as never, response: {} }), {
      commandName: `${operation}Command`,
    })({ input: {} });
  return { registry, lines, call };
}

const refused = (status: number) =>
  Object.assign(new Error("The specified queue does not exist."), {
    name: "QueueDoesNotExist",
    $metadata: { httpStatusCode: status },
  });

const subject = {
  kind: "Queue",
  namespace: "shop",
  name: "orders",
  account: "111111111111",
  roleARN: "arn:aws:iam::111111111111:role/shop",
  identity: null,
};

test("every call is counted under ACK's names; a failure by the HTTP status AWS answered", async () => {
  const { registry, call } = observed("sqs");
  await call("GetQueueUrl", async () => ({}));
  await assert.rejects(call("GetQueueUrl", () => Promise.reject(refused(400))));
  await assert.rejects(call("CreateQueue", () => Promise.reject(new Error("socket hang up"))));
  const text = await registry.metrics();
  assert.match(
    text,
    /# HELP ack_outbound_api_requests_total Total number of outbound AWS API requests made by the controller\./,
  );
  assert.match(
    text,
    /ack_outbound_api_requests_total\{service="sqs",op_type="READ_ONE",op_id="GetQueueUrl",account="none",role="none"\} 2/,
  );
  assert.match(
    text,
    /ack_outbound_api_requests_total\{service="sqs",op_type="CREATE",op_id="CreateQueue",account="none",role="none"\} 1/,
  );
  assert.match(
    text,
    /ack_outbound_api_requests_error_total\{service="sqs",op_id="GetQueueUrl",status_code="400",account="none",role="none"\} 1/,
  );
  assert.match(
    text,
    /ack_outbound_api_requests_error_total\{service="sqs",op_id="CreateQueue",status_code="-1",account="none",role="none"\} 1/,
  );
});

test("calls made for a resource are counted by its account and the role's name: who throttles, who is denied", async () => {
  const { registry, call } = observed("sqs");
  await withCallSubject(subject, async () => {
    await call("GetQueueUrl", async () => ({}));
    await assert.rejects(call("TagQueue", () => Promise.reject(refused(403))));
  });
  await withCallSubject({ ...subject, account: "222222222222", roleARN: null }, () =>
    call("GetQueueUrl", async () => ({})),
  );
  const text = await registry.metrics();
  assert.match(
    text,
    /ack_outbound_api_requests_total\{service="sqs",op_type="READ_ONE",op_id="GetQueueUrl",account="111111111111",role="shop"\} 1/,
  );
  assert.match(
    text,
    /ack_outbound_api_requests_error_total\{service="sqs",op_id="TagQueue",status_code="403",account="111111111111",role="shop"\} 1/,
  );
  assert.match(
    text,
    /ack_outbound_api_requests_total\{service="sqs",op_type="READ_ONE",op_id="GetQueueUrl",account="222222222222",role="none"\} 1/,
  );
});

test("each write is one audit line naming the resource, account, role, region and call; reads none", async () => {
  const { lines, call } = observed("sqs");
  await withCallSubject(subject, async () => {
    await call("GetQueueUrl", async () => ({}));
    await call("TagQueue", async () => ({}));
    await assert.rejects(call("DeleteQueue", () => Promise.reject(refused(403))));
  });
  assert.deepEqual(lines, [
    {
      event: "aws.write",
      call: "sqs:TagQueue",
      resource: "Queue shop/orders",
      account: "111111111111",
      roleARN: "arn:aws:iam::111111111111:role/shop",
      identity: null,
      region: "eu-west-1",
      result: "ok",
    },
    {
      event: "aws.write",
      call: "sqs:DeleteQueue",
      resource: "Queue shop/orders",
      account: "111111111111",
      roleARN: "arn:aws:iam::111111111111:role/shop",
      identity: null,
      region: "eu-west-1",
      result: "error",
      statusCode: "403",
      errorCode: "QueueDoesNotExist",
    },
  ]);
});
