// The Alias kind — a declaration served by the generic runtime (src/services/declared-kind/), which
// KMS cannot tag — against the AWS emulator, calls checked on the wire through the recording proxy:
// the create sends the name with `alias/` (as ACK adds it) and no tags; ListAliases names no alias,
// so the read lists the account's and keeps only the resource's (never a similar name, never
// another account's); a change of key is one UpdateAlias; a key's ARN in the spec is no drift from
// the ID KMS answers; ownership is nothing the module can say (`untaggable`, no tags, a claim sends
// nothing); KMS's creation time is read for an interrupted create (ListAliases' CreationDate, which
// the emulator leaves out: answered through the proxy as KMS does); delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CreateAliasCommand, CreateKeyCommand, KMSClient, ListAliasesCommand } from "@aws-sdk/client-kms";
import { aliasService as service } from "../../src/services/kms/alias.ts";
import { aliasFieldSchemas } from "../../src/services/kms/generated/alias-fields.ts";
import { type NamedKindHarness, namedKindHarness } from "../support/named-kind.ts";
import { type AccountClient, writesOnly } from "../support/two-accounts.ts";

const region = "us-east-1";
type Client = AccountClient<KMSClient>;
let h: NamedKindHarness<KMSClient>;

before(async () => {
  h = await namedKindHarness({
    label: "kms-alias",
    region,
    resource: { kind: "Alias", namespace: "shop", name: "ledger", uid: "uid-alias-1" },
    client: (endpoint, credentials) => new KMSClient({ region, endpoint, credentials }),
    service,
    // A key for the specs that only name the alias (a read, an identifier).
    base: { targetKeyID: "a-key" },
  });
});

after(() => h?.close());

const uniqueName = (label: string) => h.uniqueName(label);
const spec = (name: string, extra: Record<string, unknown> = {}) => h.spec(name, extra);
const observed = (client: Client, s: Record<string, unknown>) => h.observed(client, s);
const create = (s: Record<string, unknown>) => h.create(s);

async function keyIn(client: Client): Promise<string> {
  const made = await client.sdk.send(new CreateKeyCommand({ Description: "an alias's target" }));
  const id = made.KeyMetadata?.KeyId;
  assert.ok(id);
  return id;
}

describe("Alias through the generic runtime", () => {
  test("untaggable: the module says so, and has no tags field", () => {
    assert.equal(service.untaggable, true);
    assert.equal(service.specTags, undefined);
    assert.deepEqual(Object.keys(aliasFieldSchemas).sort(), ["name", "targetKeyID", "targetKeyRef"]);
  });

  test("create: CreateAlias with alias/ added to the name, the key, and no tags", async () => {
    const key = await keyIn(h.mine);
    const name = uniqueName("ledger");
    const sent = await h.calls.during(() => create(spec(name, { targetKeyID: key })));
    assert.deepEqual(writesOnly(sent), ["CreateAlias"]);
    assert.deepEqual(h.calls.input("CreateAlias"), { AliasName: `alias/${name}`, TargetKeyId: key });
    assert.equal(service.identifier(spec(name)), `alias/${name}`);
    assert.equal(service.identifier(spec(`alias/${name}`)), `alias/${name}`, "a prefixed name is kept");
  });

  test("read: the account's aliases are listed, only the resource's kept; the spec keeps its spelling", async () => {
    const key = await keyIn(h.mine);
    const name = uniqueName("books");
    // Names that start or end like it, made first: never taken for it.
    for (const near of [`${name}-old`, `${name}x`]) {
      await h.mine.sdk.send(new CreateAliasCommand({ AliasName: `alias/${near}`, TargetKeyId: key }));
    }
    assert.deepEqual(await service.read(h.mine, spec(name), {}), { found: false });
    await create(spec(name, { targetKeyID: key }));
    const read = await h.calls.during(() => observed(h.mine, spec(name)));
    assert.deepEqual(read, ["ListAliases"], "one call: no tags to read");
    assert.deepEqual(h.calls.input("ListAliases"), {}, "ListAliases names no alias");
    const o = await observed(h.mine, spec(name));
    assert.equal(o.fields["name"], name, "the spec's spelling, without alias/");
    assert.equal(o.fields["targetKeyID"], key);
    assert.equal(o.arn, `arn:aws:kms:${region}:${h.mine.account}:alias/${name}`);
    assert.equal(service.arn(spec(name), region, h.mine.account), o.arn);
    assert.deepEqual(service.tagsOf(o), {}, "no tags: whose it is, the controller's records say");
    assert.deepEqual(service.diff(spec(name, { targetKeyID: key }), o), []);
    assert.ok(service.parseStatus(service.statusFrom?.(o) ?? {}).ok, "status fits the CRD");
    // Another account's alias of the same name is not this account's.
    assert.deepEqual(await service.read(h.other, spec(name), {}), { found: false });
  });

  test("a key's ARN in the spec is no drift from the ID KMS answers; another key is one UpdateAlias", async () => {
    const first = await keyIn(h.mine);
    const second = await keyIn(h.mine);
    const name = uniqueName("orders");
    await create(spec(name, { targetKeyID: first }));
    const o = await observed(h.mine, spec(name));
    const byArn = spec(name, { targetKeyID: `arn:aws:kms:${region}:${h.mine.account}:key/${first}` });
    assert.deepEqual(service.diff(byArn, o), [], "the same key, by its ARN");
    const moved = spec(name, { targetKeyID: second });
    assert.deepEqual(service.diff(moved, o), ["spec.targetKeyID"]);
    const sent = await h.calls.during(() => h.update(moved, o));
    assert.deepEqual(writesOnly(sent), ["UpdateAlias"]);
    assert.deepEqual(h.calls.input("UpdateAlias"), { AliasName: `alias/${name}`, TargetKeyId: second });
    assert.deepEqual(service.diff(moved, await observed(h.mine, moved)), [], "read back as set");
  });

  test("a claim sends nothing: KMS cannot tag an alias", async () => {
    const key = await keyIn(h.mine);
    const name = uniqueName("made-elsewhere");
    await h.mine.sdk.send(new CreateAliasCommand({ AliasName: `alias/${name}`, TargetKeyId: key }));
    const o = await observed(h.mine, spec(name));
    const sent = await h.calls.during(() => service.claim(h.mine, o, h.owner, {}));
    assert.deepEqual(sent, []);
  });

  test("created at: ListAliases' CreationDate, page by page; none where KMS answers none", async () => {
    const key = await keyIn(h.mine);
    const name = uniqueName("dated");
    await create(spec(name, { targetKeyID: key }));
    assert.equal(
      await service.createdAt?.(h.mine, spec(name), {}),
      undefined,
      "the emulator answers no date",
    );
    // KMS answers each alias's CreationDate (epoch seconds in its JSON protocol).
    const at = Math.floor(Date.parse("2026-11-29T10:00:00Z") / 1000);
    const remove = h.proxy.addFault({
      name: "kms-creation-date",
      match: (r) => r.action === "ListAliases",
      respond: {
        rewrite: (body) => {
          const answer = JSON.parse(body) as { Aliases: Record<string, unknown>[] };
          for (const alias of answer.Aliases) alias["CreationDate"] = at;
          return JSON.stringify(answer);
        },
      },
    });
    try {
      const made = await service.createdAt?.(h.mine, spec(name), {});
      assert.equal(made?.toISOString(), "2026-11-29T10:00:00.000Z");
    } finally {
      remove();
    }
  });

  test("an alias/aws/ name is refused by the spec check, naming the field", () => {
    const r = service.parseSpec({ name: "aws/s3", targetKeyID: "k" });
    assert.equal(r.ok, false);
    assert.match(r.ok ? "" : r.message, /spec\.name.*alias\/aws\/.*KMS keeps for its own keys/);
  });

  test("a create of a taken name is AWS's AlreadyExists, read as created: false", async () => {
    const key = await keyIn(h.mine);
    const name = uniqueName("taken");
    await h.mine.sdk.send(new CreateAliasCommand({ AliasName: `alias/${name}`, TargetKeyId: key }));
    assert.deepEqual(await create(spec(name, { targetKeyID: key })), { created: false });
  });

  test("delete: DeleteAlias by its name; an alias already gone is not-found", async () => {
    const key = await keyIn(h.mine);
    const name = uniqueName("gone");
    await create(spec(name, { targetKeyID: key }));
    const sent = await h.calls.during(() => service.delete(h.mine, spec(name), {}, {}));
    assert.deepEqual(writesOnly(sent), ["DeleteAlias"]);
    assert.deepEqual(h.calls.input("DeleteAlias"), { AliasName: `alias/${name}` });
    const listed = await h.mine.sdk.send(new ListAliasesCommand({}));
    assert.ok(!listed.Aliases?.some((a) => a.AliasName === `alias/${name}`));
    assert.equal(await service.delete(h.mine, spec(name), {}, {}), "not-found");
  });

  test("a key KMS cannot find: retried (it may be made yet), the message naming spec.targetKeyID", async () => {
    const name = uniqueName("no-key");
    const missing = spec(name, { targetKeyID: "00000000-0000-0000-0000-000000000000" });
    const err = await create(missing).then(
      () => assert.fail("created"),
      (e: unknown) => e,
    );
    assert.equal(service.isTerminal(err), false, String(err));
    assert.match(
      service.describeError(err, missing),
      /^spec\.targetKeyID: .*does not exist.*create it or fix spec\.targetKeyID; retrying/,
    );
  });
});
