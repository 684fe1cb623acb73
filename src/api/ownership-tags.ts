// The tags by which crossrole knows an AWS object is its own (DESIGN §3.5). They are written on
// every object it creates or adopts, next to the user's own tags, and read before it updates,
// adopts or deletes anything. Users may not set them: a spec that could would let one resource
// claim another's object (reserved-tag-keys.ts refuses their prefixes in every kind's tags).
//
// All under ACK's system prefix, so that ACK's tooling and tests (which set aside
// `services.k8s.aws/` and `aws:` keys) and users' tag policies and cost reports treat them as
// the controller's own, not as the user's.
export const ownershipTagKeys = {
  /** ACK's: the namespace of the Kubernetes object. */
  namespace: "services.k8s.aws/namespace",
  /** `<Kind>/<namespace>/<name>` of the Kubernetes object. */
  owner: "services.k8s.aws/owner",
  /** The Kubernetes object's UID: what ownership is decided on. */
  ownerUid: "services.k8s.aws/owner-uid",
  /** ACK's: which controller (and version) wrote the tags. */
  controllerVersion: "services.k8s.aws/controller-version",
} as const;

/** How many tags ownership takes from a service's tag limit. */
export const ownershipTagCount = Object.keys(ownershipTagKeys).length;

/**
 * The keys earlier versions wrote `owner` and `ownerUid` under. Still read (an object tagged so is
 * judged by them exactly as by the new keys), and replaced by the new keys on the object's next
 * reconcile (the module's `claim`).
 */
export const legacyOwnershipTagKeys = {
  owner: "crossrole.dev/owner",
  ownerUid: "crossrole.dev/owner-uid",
} as const;

/** The earlier keys an object still carries: what a re-tag removes. */
export function legacyOwnershipKeysIn(tags: Readonly<Record<string, string>>): string[] {
  return Object.values(legacyOwnershipTagKeys).filter((k) => tags[k] !== undefined);
}
