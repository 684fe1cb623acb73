// The generic runtime never acts on an object whose identifier is not the resource's, for every
// kind it serves (the catalog's `declared` entries), whatever AWS's read answers list: a read
// whose answer lists other objects (a loose filter, or none) finds only the resource's own, or
// nothing; and no call it then sends (tags, field groups, delete, claim) names another object's
// identifier or ARN. A kind located by a handle (a queue's URL) names the object to the handle call
// by its identifier, and every later call by the handle that call answered, never another's; a
// kind addressed by ARN (a topic) names it by the ARN of the resource's name in the client's account;
// a kind whose read answers the one object named (S3's HeadBucket) has no list to pick from.
// AWS is an in-process fake here (pure logic: what the runtime sends, given
// what it is answered); the real calls are tested against the emulator elsewhere.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type Fields, fakeSdk } from "../../../test/support/fake-sdk.ts";
import type { RuntimeDeclaration } from "../../codegen/declaration.ts";
import { servedKindCatalog } from "../catalog.ts";
import { noSecrets } from "../service-module.ts";
import { declaredKindModule } from "./module.ts";
import type { DeclaredKindSource } from "./source.ts";

/** Every string in a call's input, however deep. */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

const declaredKinds = Object.entries(servedKindCatalog).flatMap(([name, entry]) =>
  "declared" in entry ? [{ name, declared: entry.declared }] : [],
);

test("the catalog has kinds the generic runtime serves", () => {
  assert.ok(declaredKinds.length > 0);
});

for (const { name: kindName, declared } of declaredKinds) {
  test(`${kindName}: reads, tags, updates, claims and deletes only the object whose identifier is the resource's`, async () => {
    const source = await declared();
    const runtime = source.generated.runtime;
    const decl: RuntimeDeclaration = source.declaration.runtime;
    const idField = source.generated.declared.identifier;
    const same = (a: string, b: string) =>
      runtime.caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
    const service = source.declaration.service;
    const arnOf = (id: string) =>
      decl.arnScope === "global"
        ? `arn:aws:${service}:::${decl.arnResource}${id}`
        : decl.arnScope === "account"
          ? `arn:aws:${service}::111111111111:${decl.arnResource}${id}`
          : `arn:aws:${service}:us-east-1:111111111111:${decl.arnResource}${id}`;
    const arnMember = decl.arn ?? "Arn";
    const identifier = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9-]{0,20}$/);

    await fc.assert(
      fc.asyncProperty(
        identifier,
        fc.array(identifier, { maxLength: 5 }),
        fc.boolean(),
        fc.nat(),
        async (name, candidates, exists, at) => {
          // AWS's spelling of a spec's name, where the kind says it (KMS's `alias/` prefix).
          const hooks: DeclaredKindSource<never>["hooks"] = "hooks" in source ? source.hooks : undefined;
          const aws = (n: string) => hooks?.identifier?.(n) ?? n;
          const others = [...new Set(candidates.filter((o) => !same(o, name)).map(aws))];
          const ownId = runtime.caseInsensitive ? aws(name).toLowerCase() : aws(name);
          // What the calls name it by: as written, or lower-cased where AWS stores it so (RDS).
          const wire = runtime.lowercase === true ? aws(name).toLowerCase() : aws(name);
          const located = runtime.locate;
          const byArn = runtime.byArn === true;
          const handleOf = (id: string) => `https://sqs.us-east-1.amazonaws.com/111111111111/${id}`;
          // Read by name, the answer lists the others too; located, each has a handle of its own.
          const listed = others.map((o) => ({ [runtime.read.id]: o, [arnMember]: arnOf(o) }));
          if (exists)
            listed.splice(at % (listed.length + 1), 0, {
              [runtime.read.id]: ownId,
              [arnMember]: arnOf(ownId),
            });
          const {
            sdk,
            client: fake,
            sent,
          } = fakeSdk((call) => {
            if (located !== undefined && call.operation === located.call) {
              const asked = String(call.input[located.by.member]);
              if (!exists && asked === name)
                throw Object.assign(new Error("gone"), { name: decl.notFound[0] });
              return { [located.handle]: handleOf(asked) };
            }
            if (located !== undefined && call.operation === runtime.read.call) {
              return { [runtime.read.answers]: { [arnMember]: arnOf(ownId) } };
            }
            if (byArn && call.operation === runtime.read.call) {
              if (!exists || call.input[runtime.read.by.member] !== arnOf(name))
                throw Object.assign(new Error("gone"), { name: decl.notFound[0] });
              return { [runtime.read.answers]: { [arnMember]: arnOf(ownId) } };
            }
            if (runtime.read.whole === true && call.operation === runtime.read.call) {
              // The call names one object and answers about it alone: there, or not found.
              if (!exists) throw Object.assign(new Error("gone"), { name: decl.notFound[0] });
              // Its ARN, where the answer holds one (a secret's, which cannot be composed).
              return { [arnMember]: arnOf(ownId) };
            }
            if (call.operation === runtime.read.call) {
              // A read of one object answers it, or (not there) whatever AWS may: another.
              const own = listed.find((item) => item[runtime.read.id] === ownId);
              return { [runtime.read.answers]: runtime.read.list ? listed : (own ?? listed[0]) };
            }
            if (
              decl.tags !== undefined &&
              call.input[decl.tags.resource] !== undefined &&
              !("Tags" in call.input)
            ) {
              // A value no identifier can be (S3 writes a bucket's tags back whole).
              return { [decl.tags.list]: [{ Key: "team", Value: "team a" }] };
            }
            return {};
          });
          const module = declaredKindModule({ ...source, sdk } as unknown as DeclaredKindSource<never>);
          const spec = { [idField]: name } as Fields;
          const seen = await module.read(fake, spec, {});
          assert.equal(seen.found, exists, `found ${JSON.stringify(listed)} for ${name}`);
          // The read named the object as its call takes it: the identifier (or, located, first the
          // identifier to the handle call, then the handle), nothing else.
          const read = sent[0];
          if (byArn) {
            assert.deepEqual(read, {
              operation: runtime.read.call,
              input: { ...runtime.readInput, [runtime.read.by.member]: arnOf(name) },
            });
          } else if (located === undefined) {
            assert.equal(read?.operation, runtime.read.call);
            // A read naming no object (KMS's ListAliases) lists them all: the answer is matched.
            assert.deepEqual(
              read?.input,
              runtime.read.by.form === "none"
                ? {}
                : { [runtime.read.by.member]: runtime.read.by.form === "list" ? [wire] : wire },
            );
          } else {
            assert.deepEqual(read, { operation: located.call, input: { [located.by.member]: name } });
            if (exists)
              assert.deepEqual(sent[1], {
                operation: runtime.read.call,
                input: { ...runtime.readInput, [runtime.read.by.member]: handleOf(name) },
              });
          }
          if (seen.found) {
            assert.equal(seen.observed.arn, arnOf(ownId), "the resource's own object, never another listed");
            const desired = {
              ...seen.observed.fields,
              [idField]: name,
              tags:
                source.generated.declared.specTags?.shape === "map"
                  ? { tier: "gold" }
                  : [{ key: "tier", value: "gold" }],
            };
            await module.update(
              fake,
              desired,
              seen.observed,
              { "services.k8s.aws/owner-uid": "uid:1" },
              {},
              noSecrets,
            );
            await module.claim(fake, seen.observed, { "services.k8s.aws/owner-uid": "uid:1" }, {});
          }
          await module.delete(fake, spec, {}, {});
          const foreign = new Set(others.flatMap((o) => [o, arnOf(o), handleOf(o)]));
          for (const call of sent.slice(1)) {
            const named = stringsIn(call.input).filter((v) => foreign.has(v));
            assert.deepEqual(
              named,
              [],
              `${call.operation} named another object: ${JSON.stringify(call.input)}`,
            );
          }
          const deleted = sent.at(-1);
          if (located !== undefined && !exists) {
            // Nothing to delete: the handle call said so, and no delete was sent.
            assert.equal(deleted?.operation, located.call);
            return;
          }
          if ((source as { hooks?: { deleteFirst?: unknown } }).hooks?.deleteFirst !== undefined && !exists) {
            // A kind that reads before it deletes (what must go first): nothing there, no delete.
            assert.equal(deleted?.operation, runtime.read.call);
            return;
          }
          assert.equal(deleted?.operation, runtime.delete.call);
          assert.deepEqual(
            deleted?.input[runtime.delete.by.member],
            byArn
              ? arnOf(name)
              : located !== undefined
                ? handleOf(name)
                : runtime.delete.by.form === "list"
                  ? [wire]
                  : wire,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
}
