import assert from "node:assert/strict";
import { test } from "node:test";
import { type Deployment, isAckController } from "./takeover-cluster.ts";

const deployment = (
  name: string,
  opts: { labels?: Record<string, string>; image?: string; args?: string[] } = {},
): Deployment => ({
  metadata: { name, namespace: "ack-system", ...(opts.labels ? { labels: opts.labels } : {}) },
  spec: {
    template: {
      spec: {
        containers: [{ image: opts.image ?? "registry.corp/mirror/controller:1", args: opts.args ?? [] }],
      },
    },
  },
});

test("ACK's controllers are recognised by chart label, chart arguments, image or name", () => {
  // ACK's chart names the Deployment <release>-<service>-chart.
  assert.equal(isAckController(deployment("ack-s3-controller-s3-chart")), true);
  // A renamed release on a privately mirrored image: ACK's chart label still says what it is.
  assert.equal(
    isAckController(deployment("storage", { labels: { "helm.sh/chart": "s3-chart-1.10.0" } })),
    true,
  );
  assert.equal(
    isAckController(deployment("storage", { args: ["--watch-namespace", "$(ACK_WATCH_NAMESPACE)"] })),
    true,
  );
  assert.equal(
    isAckController(
      deployment("storage", { image: "public.ecr.aws/aws-controllers-k8s/sqs-controller:1.6.1" }),
    ),
    true,
  );
});

test("crossrole's own Deployment and others are not ACK's", () => {
  assert.equal(
    isAckController(
      deployment("crossrole", { labels: { "helm.sh/chart": "crossrole-0.1.0" }, image: "crossrole:0.1.0" }),
    ),
    false,
  );
  assert.equal(isAckController(deployment("web", { labels: { "helm.sh/chart": "nginx-15.0.0" } })), false);
});
