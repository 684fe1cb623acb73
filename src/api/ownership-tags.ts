// The tags by which crossrole knows an AWS object is its own (DESIGN §3.5). They are written on
// every object it creates or adopts, next to the user's own tags, and read before it updates,
// adopts or deletes anything. Users may not set them: a spec that could would let one resource
// claim another's object.
import type { z } from "zod";
import { withRules } from "./rules.ts";

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

const reservedPrefix = "crossrole.dev/";
const reservedKeys: ReadonlySet<string> = new Set(Object.values(ownershipTagKeys));

/** Whether a tag key belongs to the controller (never to the user's spec). */
export function isReservedTagKey(key: string): boolean {
  return key.startsWith(reservedPrefix) || reservedKeys.has(key);
}

/** The user's tags among what AWS reports: ownership tags removed. */
export function withoutReservedTags(tags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).filter(([k]) => !isReservedTagKey(k)));
}

/** The CEL form of isReservedTagKey, for admission. */
const reservedCel = `!self.startsWith('${reservedPrefix}') && !(self in [${[...reservedKeys]
  .map((k) => `'${k}'`)
  .join(", ")}])`;

/**
 * Adds the "not a reserved key" rule to a tag-key field. `field` names it in the message
 * (e.g. `tagging.tagSet[].key`).
 */
export function userTagKey<S extends z.ZodType<string>>(schema: S, field: string): S {
  return withRules(schema, {
    cel: reservedCel,
    message: `${field} must not be ${[...reservedKeys].join(", ")} or start with '${reservedPrefix}': crossrole sets those ownership tags itself; rename the tag`,
    check: (key: string) => !isReservedTagKey(key),
  });
}
