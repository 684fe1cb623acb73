import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KubeApiError } from "../runtime/kube-client.ts";
import { describeKubeCall, kubeApiErrorIn, kubeFailureState, kubernetesErrorReason } from "./kube-failure.ts";

const queues = { plural: "queues", kind: "Queue" };
const dbInstances = { plural: "dbinstances", kind: "DBInstance" };
const queuePath = "/apis/sqs.services.k8s.aws/v1alpha1/namespaces/shop/queues/orders";

/** A KubeApiError as the client builds it from a metav1.Status answer. */
function apiError(
  status: number,
  reason: string,
  message: string,
  call?: ConstructorParameters<typeof KubeApiError>[5],
) {
  return new KubeApiError(
    status,
    reason,
    `${call?.method ?? "GET"} ${call?.path ?? "/"}: ${status} ${reason}: ${message}`,
    { kind: "Status", reason, message, code: status },
    undefined,
    call,
  );
}

describe("describeKubeCall: the call as a user reads it", () => {
  test("a status write, a spec write, a metadata write, a read of a Secret", () => {
    assert.equal(
      describeKubeCall({ method: "PATCH", path: `${queuePath}/status`, fields: ["status"] }, queues),
      "PATCH status of Queue shop/orders",
    );
    assert.equal(
      describeKubeCall({ method: "PATCH", path: queuePath, fields: ["spec"] }, queues),
      "PATCH spec of Queue shop/orders",
    );
    assert.equal(
      describeKubeCall({ method: "PATCH", path: queuePath, fields: ["metadata"] }, queues),
      "PATCH metadata of Queue shop/orders",
    );
    assert.equal(
      describeKubeCall({ method: "GET", path: "/api/v1/namespaces/shop/secrets/db-password" }, queues),
      "GET Secret shop/db-password",
    );
  });

  test("the kind as users write it", () => {
    assert.equal(
      describeKubeCall(
        {
          method: "PATCH",
          path: "/apis/rds.services.k8s.aws/v1alpha1/namespaces/shop/dbinstances/db/status",
        },
        dbInstances,
      ),
      "PATCH status of DBInstance shop/db",
    );
  });

  test("another path shape is said as it is", () => {
    assert.equal(
      describeKubeCall({ method: "GET", path: "/apis/services.k8s.aws/v1alpha1/iamroleselectors/a" }, queues),
      "GET /apis/services.k8s.aws/v1alpha1/iamroleselectors/a",
    );
  });
});

describe("kubeFailureState: a failed Kubernetes call, never an AWS error", () => {
  test("a 422 on a write is Terminal, names the call, the apiserver's words and the fix", () => {
    const state = kubeFailureState(
      apiError(
        422,
        "Invalid",
        'Queue.sqs.services.k8s.aws "orders" is invalid: spec.delaySeconds: Invalid value',
        {
          method: "PATCH",
          path: queuePath,
          fields: ["spec"],
        },
      ),
      queues,
    );
    assert.equal(state.kind, "terminal");
    assert.equal(state.reason, kubernetesErrorReason);
    assert.match(
      state.message,
      /^PATCH spec of Queue shop\/orders failed: 422 Invalid: Queue\.sqs\.services\.k8s\.aws "orders" is invalid: spec\.delaySeconds/,
    );
    assert.match(state.message, /apply this version's \(helm\/crossrole\/crds\/\)/);
    assert.match(state.message, /Not retried until the object changes\)$/);
    assert.doesNotMatch(state.message, /AWS|KubeApiError/);
  });

  test("403, 404, 409 and 5xx are Recoverable with their own fix", () => {
    const call = { method: "PATCH", path: `${queuePath}/status`, fields: ["status"] };
    const cases: [number, string, RegExp][] = [
      [403, "Forbidden", /RBAC of this crossrole version/],
      [404, "NotFound", /the object is gone; retrying/],
      [409, "Conflict", /changed meanwhile; retrying/],
      [503, "ServiceUnavailable", /overloaded or failing; retrying/],
    ];
    for (const [status, reason, fix] of cases) {
      const state = kubeFailureState(apiError(status, reason, "no", call), queues);
      assert.equal(state.kind, "recoverable", reason);
      assert.match(
        state.message,
        new RegExp(`^PATCH status of Queue shop/orders failed: ${status} ${reason}: no`),
      );
      assert.match(state.message, fix);
    }
  });

  test("an error without a call (a watch's ERROR event) still says it was Kubernetes", () => {
    const err = new KubeApiError(500, "", "watch /x: boom", { message: "boom" });
    assert.match(kubeFailureState(err, queues).message, /^A Kubernetes call failed: 500: boom/);
  });
});

describe("kubeApiErrorIn", () => {
  test("finds the KubeApiError in a cause chain, nothing elsewhere", () => {
    const inner = apiError(422, "Invalid", "x");
    assert.equal(kubeApiErrorIn(new Error("outer", { cause: new Error("mid", { cause: inner }) })), inner);
    assert.equal(kubeApiErrorIn(new Error("aws")), undefined);
    assert.equal(kubeApiErrorIn("text"), undefined);
  });
});
