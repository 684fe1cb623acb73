// The record of an untaggable object's owner (owned-objects.ts): its name, what it holds, and the
// ownership tags it stands for — only for the object it names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ownershipTagKeys } from "../../api/ownership-tags.ts";
import { describeOwnership, judgeOwnership } from "../ownership.ts";
import {
  type OwnedEntry,
  ownedEntryOf,
  ownedKey,
  ownedKindOf,
  ownedRecordName,
  ownedTags,
} from "./owned-objects.ts";

const object = {
  kind: "kms.services.k8s.aws/Alias",
  account: "111111111111",
  region: "us-east-1",
  identifier: "alias/ledger",
};
const owner = { kind: "Alias", namespace: "shop", name: "ledger", uid: "uid-1" };
const entry: OwnedEntry = { owner, object, at: "2026-11-29T00:00:00.000Z" };
const record = (data: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: ownedRecordName(object), namespace: "ack-system" },
  data,
});

test("one record name per object: a DNS name, different for each of kind, account, region and identifier", () => {
  const name = ownedRecordName(object);
  assert.match(name, /^crossrole-owned-[0-9a-f]{40}$/);
  assert.ok(name.length <= 63);
  assert.equal(ownedRecordName({ ...object }), name, "stable");
  const others = [
    { ...object, kind: "kms.services.k8s.aws/Key" },
    { ...object, account: "222222222222" },
    { ...object, region: "eu-west-1" },
    { ...object, identifier: "alias/ledger2" },
  ].map(ownedRecordName);
  assert.equal(new Set([name, ...others]).size, 5);
  assert.equal(ownedKindOf({ group: "kms.services.k8s.aws", kind: "Alias" }), object.kind);
});

test("a record stands for the owner's ownership tags, judged as tags are (retained too, as tags stay)", () => {
  const tags = ownedTags(ownedEntryOf(record({ [ownedKey]: JSON.stringify(entry) })), object);
  assert.equal(tags[ownershipTagKeys.ownerUid], "uid-1");
  assert.equal(tags[ownershipTagKeys.owner], "Alias/shop/ledger");
  assert.deepEqual(judgeOwnership(tags, owner), { kind: "ours" });
  const retained = { ...entry, retained: "2026-11-29T01:00:00.000Z" };
  const left = ownedTags(ownedEntryOf(record({ [ownedKey]: JSON.stringify(retained) })), object);
  assert.deepEqual(judgeOwnership(left, { ...owner, uid: "uid-3" }), { kind: "earlier", uid: "uid-1" });
  assert.deepEqual(judgeOwnership(tags, { ...owner, namespace: "other", uid: "uid-2" }), {
    kind: "other",
    owner: "Alias/shop/ledger",
    uid: "uid-1",
  });
});

test("no owner where the record is absent, malformed, or about another object", () => {
  assert.deepEqual(ownedTags(undefined, object), {});
  assert.equal(ownedEntryOf(record({ [ownedKey]: "not json" })), undefined);
  assert.equal(ownedEntryOf(record({ [ownedKey]: JSON.stringify({ owner, object }) })), undefined, "no time");
  assert.equal(
    ownedEntryOf(record({ [ownedKey]: JSON.stringify({ ...entry, owner: { ...owner, uid: 7 } }) })),
    undefined,
  );
  assert.equal(
    ownedEntryOf(record({ [ownedKey]: JSON.stringify({ ...entry, retained: 1 }) })),
    undefined,
    "a retained time that is no time",
  );
  assert.deepEqual(ownedTags(entry, { ...object, identifier: "alias/other" }), {}, "another object's record");
  assert.deepEqual(judgeOwnership({}, owner), { kind: "untagged" });
  assert.match(
    describeOwnership({ kind: "untagged", by: "record" }),
    /^not recorded as crossrole's \(AWS cannot tag it/,
  );
});
