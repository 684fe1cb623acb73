// The tags by which crossrole knows an AWS object is its own (DESIGN §3.5). They are written on
// every object it creates or adopts, next to the user's own tags, and read before it updates,
// adopts or deletes anything. Users may not set them: a spec that could would let one resource
// claim another's object (reserved-tag-keys.ts refuses their prefixes in every kind's tags).

export const ownershipTagKeys = {
  /** ACK's: the namespace of the Kubernetes object. */
  namespace: "services.k8s.aws/namespace",
  /** `<Kind>/<namespace>/<name>` of the Kubernetes object. */
  owner: "crossrole.dev/owner",
  /** The Kubernetes object's UID: what ownership is decided on. */
  ownerUid: "crossrole.dev/owner-uid",
  /** ACK's: which controller (and version) wrote the tags. */
  controllerVersion: "services.k8s.aws/controller-version",
} as const;

/** How many tags ownership takes from a service's tag limit. */
export const ownershipTagCount = Object.keys(ownershipTagKeys).length;
