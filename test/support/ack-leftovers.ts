// Objects in the exact state ACK's controllers leave them, for the takeover tests: in AWS, the
// tags of ACK's default resourceTags (services.k8s.aws/controller-version `<service>-<version>`,
// services.k8s.aws/namespace); in Kubernetes, ACK's finalizer `finalizers.<group>/<Kind>`,
// status.ackResourceMetadata and ACK.ResourceSynced True. And `crossrole takeover --from-ack`
// run as a process with the controller's AWS credentials, as an administrator would.
import { controllerCredentials } from "../../src/local-stack/controller-process.ts";
import type { KubeClient } from "../../src/runtime/kube-client.ts";
import { resourcePath } from "../e2e/fixture.ts";
import { runCrossrole } from "./run-crossrole.ts";

/** ACK's default resourceTags on an object it made for `namespace`. */
export const ackTags = (service: string, namespace: string) => ({
  "services.k8s.aws/controller-version": `${service}-v1.10.0`,
  "services.k8s.aws/namespace": namespace,
});

/** A Bucket or Queue as ACK leaves it: its finalizer, then (status subresource) ACK's status. */
export async function ackObject(
  kube: KubeClient,
  kind: "Bucket" | "Queue",
  at: {
    readonly namespace: string;
    readonly name: string;
    readonly account: string;
    readonly region: string;
  },
  spec: Record<string, unknown>,
  status: { readonly arn: string } & Record<string, unknown>,
): Promise<void> {
  const group = kind === "Bucket" ? "s3.services.k8s.aws" : "sqs.services.k8s.aws";
  const { namespace, name, account, region } = at;
  await kube.request({
    method: "POST",
    path: resourcePath(kind, namespace, "").replace(/\/$/, ""),
    body: {
      apiVersion: `${group}/v1alpha1`,
      kind,
      metadata: { name, namespace, finalizers: [`finalizers.${group}/${kind}`] },
      spec,
    },
  });
  const { arn, ...own } = status;
  await kube.request({
    method: "PATCH",
    path: `${resourcePath(kind, namespace, name)}/status`,
    contentType: "application/merge-patch+json",
    body: {
      status: {
        ackResourceMetadata: { arn, ownerAccountID: account, region },
        // ACK's runtime (v0.62, ensureConditions) writes Ready beside Synced, with Synced's words.
        conditions: ["ACK.ResourceSynced", "Ready"].map((type) => ({
          type,
          status: "True",
          message: "Resource synced successfully",
          lastTransitionTime: "2026-11-01T00:00:00Z",
        })),
        // What the kind's own status holds after ACK's create: a bucket's location, a queue's URL.
        ...own,
      },
    },
  });
}

/** `crossrole takeover --from-ack <args>` against the stack, with the controller's credentials. */
export function runTakeover(
  stack: { readonly kubeconfigPath: string },
  endpoint: string,
  region: string,
  args: string[],
) {
  return runCrossrole(
    [
      "takeover",
      "--from-ack",
      `--kubeconfig=${stack.kubeconfigPath}`,
      `--aws-endpoint-url=${endpoint}`,
      `--aws-region=${region}`,
      ...args,
    ],
    {
      AWS_ACCESS_KEY_ID: controllerCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: controllerCredentials.secretAccessKey,
      AWS_EC2_METADATA_DISABLED: "true",
    },
    "process",
  );
}
