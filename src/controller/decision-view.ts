// What the leader's controllers read of every managed resource when the resources are sharded:
// each replica caches only its shard's objects in full, and the leader keeps, for the identity
// protection, the IAMRoleSelector matches and crossrole_resources, a view of all of them with
// only what they read: metadata (the resolver's labels and annotations), spec.identityRef,
// status.ackResourceMetadata (readResource) and the ACK.Terminal condition (outcomeOf).
import type { KubeObject } from "../runtime/kube-object.ts";
import { conditionTypes } from "./ack-conditions.ts";

interface Viewed {
  readonly spec?: { readonly identityRef?: unknown };
  readonly status?: {
    readonly ackResourceMetadata?: unknown;
    readonly conditions?: readonly { readonly type?: unknown; readonly status?: unknown }[];
  };
}

export function decisionView(obj: KubeObject): KubeObject {
  const { spec, status } = obj as KubeObject & Viewed;
  const terminal = Array.isArray(status?.conditions)
    ? status.conditions.filter((c) => c?.type === conditionTypes.terminal)
    : [];
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: obj.metadata,
    ...(spec?.identityRef === undefined ? {} : { spec: { identityRef: spec.identityRef } }),
    ...(status?.ackResourceMetadata === undefined && terminal.length === 0
      ? {}
      : {
          status: {
            ...(status?.ackResourceMetadata === undefined
              ? {}
              : { ackResourceMetadata: status.ackResourceMetadata }),
            ...(terminal.length === 0 ? {} : { conditions: terminal }),
          },
        }),
  } as KubeObject;
}

export const decisionViewProjection = { name: "decision inputs", project: decisionView };
