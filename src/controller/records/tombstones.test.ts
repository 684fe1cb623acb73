import assert from "node:assert/strict";
import { test } from "node:test";
import type { CreateIntent } from "../create-intent.ts";
import { landsUntil, parseTombstone, signatureLifetimeMs, tombstoneFor, tombstoneKey } from "./tombstones.ts";

const intent: CreateIntent = {
  action: "create",
  name: "orders",
  ownerAccountID: "111111111111",
  region: "eu-west-1",
  requestedAt: "2026-11-28T10:00:00.000Z",
  mac: "m",
};
const resource = {
  apiVersion: "sqs.services.k8s.aws/v1alpha1",
  owner: { kind: "Queue", namespace: "shop", name: "orders", uid: "u-1" },
  labels: { team: "a" },
  annotations: { "services.k8s.aws/region": "eu-west-1" },
  spec: { queueName: "orders" },
};
const windowMs = 120_000;
const at = (iso: string) => new Date(iso);

test("a create can land until the intent's window has closed and the last signature made in it has expired", () => {
  assert.equal(signatureLifetimeMs, 15 * 60_000);
  assert.equal(landsUntil(intent, windowMs).toISOString(), "2026-11-28T10:17:00.000Z");
});

test("the tombstone remembers whose, where, what name, until when, and what to decide and read it with", () => {
  const t = tombstoneFor(resource, intent, at("2026-11-28T10:02:00.000Z"), windowMs);
  assert.deepEqual(t, {
    owner: resource.owner,
    apiVersion: resource.apiVersion,
    awsName: "orders",
    account: "111111111111",
    region: "eu-west-1",
    requestedAt: intent.requestedAt,
    releasedAt: "2026-11-28T10:02:00.000Z",
    until: "2026-11-28T10:17:00.000Z",
    object: { labels: resource.labels, annotations: resource.annotations, spec: resource.spec },
  });
});

test("none once nothing signed inside the window can land any more", () => {
  assert.equal(tombstoneFor(resource, intent, at("2026-11-28T10:17:00.000Z"), windowMs), undefined);
  assert.ok(tombstoneFor(resource, intent, at("2026-11-28T10:16:59.999Z"), windowMs));
});

test("a record's tombstone parses back; a malformed one says why", () => {
  const t = tombstoneFor(resource, intent, at("2026-11-28T10:02:00.000Z"), windowMs);
  const record = (data: Record<string, string>) => ({ metadata: { name: "crossrole-tombstone-u-1" }, data });
  assert.deepEqual(parseTombstone(record({ [tombstoneKey]: JSON.stringify(t) })), { ok: true, value: t });
  assert.deepEqual(parseTombstone(record({})), { ok: false, why: `it has no data key ${tombstoneKey}` });
  assert.deepEqual(parseTombstone(record({ [tombstoneKey]: "{" })), {
    ok: false,
    why: `${tombstoneKey} is not JSON`,
  });
  const broken = { ...t, owner: { ...resource.owner, uid: "" } };
  assert.deepEqual(parseTombstone(record({ [tombstoneKey]: JSON.stringify(broken) })), {
    ok: false,
    why: `${tombstoneKey} is malformed`,
  });
});
