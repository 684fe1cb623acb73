// Bringing an object's tags in AWS to the map the spec (and the ownership tags) call for, the
// same way in every service: first tag what is new or changed, then untag the user's tags the
// spec no longer has. Ownership tags are never removed: another owner's claim, or our own,
// stays until the reconciler decides otherwise.
import { legacyOwnershipKeysIn } from "../api/ownership-tags.ts";
import { isReservedTagKey } from "../api/reserved-tag-keys.ts";

/** The service's two tag writes; each throws the service's error on failure. */
export interface TagWrites {
  readonly tag: (tags: Record<string, string>) => Promise<unknown>;
  readonly untag: (keys: string[]) => Promise<unknown>;
}

/** Tags what differs, then removes the user's tags the spec no longer has; skips a write with nothing to do. */
export async function applyTagChanges(
  desired: Readonly<Record<string, string>>,
  observed: Readonly<Record<string, string>>,
  writes: TagWrites,
): Promise<void> {
  const changed = Object.fromEntries(Object.entries(desired).filter(([k, v]) => observed[k] !== v));
  const removed = Object.keys(observed).filter((k) => !(k in desired) && !isReservedTagKey(k));
  if (Object.keys(changed).length > 0) await writes.tag(changed);
  if (removed.length > 0) await writes.untag(removed);
}

/**
 * A module's `claim`: puts the ownership tags on (keeping every other tag), then takes off the
 * keys earlier versions wrote them under (ownership-tags.ts). In that order: an object left
 * between the two carries both, and the current keys decide.
 */
export async function claimTags(
  observed: Readonly<Record<string, string>>,
  ownerTags: Readonly<Record<string, string>>,
  writes: TagWrites,
): Promise<void> {
  if (Object.keys(ownerTags).length > 0) await writes.tag({ ...ownerTags });
  const legacy = legacyOwnershipKeysIn(observed);
  if (legacy.length > 0) await writes.untag(legacy);
}
