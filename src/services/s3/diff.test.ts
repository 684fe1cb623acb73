import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { afterApplying, diff, lateInitialize } from "../../../test/support/bucket-shims.ts";
import { awsError, type Fields, fakeSdk } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredClient } from "../declared-kind/source.ts";
import { noSecrets } from "../service-module.ts";
import { tagMapOf as tagListMap } from "../tag-list.ts";
import { type bucketService, bucketSource } from "./bucket.ts";
import {
  type BucketFields,
  bucketSpecSchema,
  bucketSubresources,
  objectOwnerships,
  sseAlgorithms,
  type Tagging,
} from "./schema.ts";

const name = "shop-assets";
const fields = (d: ReturnType<typeof diff>) => d.map((x) => x.field);
/** Every tag of a spec's tagging, as a map. */
const tagMapOf = (tagging: Tagging | undefined) => tagListMap(tagging?.tagSet);

/** What a brand-new bucket looks like in real S3 since 2023 (moto returns none of these). */
const realS3Defaults: BucketFields = {
  name,
  encryption: {
    rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" }, bucketKeyEnabled: false }],
  },
  ownershipControls: { rules: [{ objectOwnership: "BucketOwnerEnforced" }] },
  publicAccessBlock: {
    blockPublicACLs: true,
    blockPublicPolicy: true,
    ignorePublicACLs: true,
    restrictPublicBuckets: true,
  },
};

describe("diff", () => {
  test("a spec and the same configuration read back do not differ", () => {
    const spec: BucketFields = {
      ...realS3Defaults,
      tagging: { tagSet: [{ key: "a", value: "1" }] },
      versioning: { status: "Enabled" },
      policy: '{"Version":"2012-10-17"}',
    };
    assert.deepEqual(diff(spec, structuredClone(spec)), []);
  });

  test("tag order does not matter; a changed value, key or count does", () => {
    const desired: BucketFields = {
      name,
      tagging: {
        tagSet: [
          { key: "a", value: "1" },
          { key: "b", value: "2" },
        ],
      },
    };
    const reordered: BucketFields = {
      name,
      tagging: {
        tagSet: [
          { key: "b", value: "2" },
          { key: "a", value: "1" },
        ],
      },
    };
    assert.deepEqual(diff(desired, reordered), []);
    assert.deepEqual(fields(diff(desired, { name, tagging: { tagSet: [{ key: "a", value: "1" }] } })), [
      "tagging",
    ]);
    assert.deepEqual(
      fields(
        diff(desired, {
          name,
          tagging: {
            tagSet: [
              { key: "a", value: "1" },
              { key: "b", value: "3" },
            ],
          },
        }),
      ),
      ["tagging"],
    );
  });

  test("absent or empty tags mean none: tags found in S3 are drift", () => {
    const observed: BucketFields = { name, tagging: { tagSet: [{ key: "added-by", value: "console" }] } };
    assert.deepEqual(fields(diff({ name }, observed)), ["tagging"]);
    assert.deepEqual(fields(diff({ name, tagging: { tagSet: [] } }, observed)), ["tagging"]);
    assert.deepEqual(fields(diff({ name, tagging: {} }, observed)), ["tagging"]);
    assert.deepEqual(diff({ name, tagging: { tagSet: [] } }, { name }), []);
  });

  test("policies compare as JSON: whitespace and key order do not matter, content does", () => {
    const desired: BucketFields = {
      name,
      policy: '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Sid":"1"}]}',
    };
    assert.deepEqual(
      diff(desired, {
        name,
        policy: '{\n  "Statement": [ { "Sid": "1", "Effect": "Allow" } ],\n  "Version": "2012-10-17"\n}',
      }),
      [],
    );
    assert.deepEqual(
      fields(
        diff(desired, { name, policy: '{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Sid":"1"}]}' }),
      ),
      ["policy"],
    );
  });

  test("absent or empty policy means none: a policy found in S3 is drift", () => {
    assert.deepEqual(fields(diff({ name }, { name, policy: "{}" })), ["policy"]);
    assert.deepEqual(fields(diff({ name, policy: "" }, { name, policy: "{}" })), ["policy"]);
    assert.deepEqual(diff({ name, policy: "" }, { name }), []);
  });

  test("late-initialised fields absent from the spec never differ", () => {
    assert.deepEqual(diff({ name }, realS3Defaults), []);
    assert.deepEqual(diff({ name }, { name, versioning: { status: "Enabled" } }), []);
  });

  test("a public access block of all-false flags equals none", () => {
    assert.deepEqual(diff({ name, publicAccessBlock: {} }, { name }), []);
    assert.deepEqual(diff({ name, publicAccessBlock: { blockPublicACLs: false } }, { name }), []);
    assert.deepEqual(fields(diff({ name, publicAccessBlock: {} }, realS3Defaults)), ["publicAccessBlock"]);
    assert.deepEqual(fields(diff({ name, publicAccessBlock: { blockPublicACLs: true } }, realS3Defaults)), [
      "publicAccessBlock",
    ]);
  });

  test("ownership controls: another rule, or rules [] against S3's default, differ", () => {
    assert.deepEqual(
      fields(
        diff({ name, ownershipControls: { rules: [{ objectOwnership: "ObjectWriter" }] } }, realS3Defaults),
      ),
      ["ownershipControls"],
    );
    assert.deepEqual(fields(diff({ name, ownershipControls: { rules: [] } }, realS3Defaults)), [
      "ownershipControls",
    ]);
    assert.deepEqual(diff({ name, ownershipControls: { rules: [] } }, { name }), []);
  });

  test("a never-versioned bucket counts as Suspended", () => {
    assert.deepEqual(diff({ name, versioning: { status: "Suspended" } }, { name }), []);
    assert.deepEqual(fields(diff({ name, versioning: { status: "Enabled" } }, { name })), ["versioning"]);
    assert.deepEqual(
      fields(
        diff({ name, versioning: { status: "Suspended" } }, { name, versioning: { status: "Enabled" } }),
      ),
      ["versioning"],
    );
  });

  test("encryption: bucketKeyEnabled absent equals false; another algorithm or key differs", () => {
    const aes = {
      name,
      encryption: { rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" as const } }] },
    };
    assert.deepEqual(diff(aes, realS3Defaults), []);
    const kms = (kmsMasterKeyID?: string): BucketFields => ({
      name,
      encryption: {
        rules: [
          {
            applyServerSideEncryptionByDefault: {
              sseAlgorithm: "aws:kms",
              ...(kmsMasterKeyID === undefined ? {} : { kmsMasterKeyID }),
            },
          },
        ],
      },
    });
    assert.deepEqual(fields(diff(kms("alias/a"), realS3Defaults)), ["encryption"]);
    assert.deepEqual(fields(diff(kms("alias/a"), kms("alias/b"))), ["encryption"]);
    assert.deepEqual(fields(diff(kms(), kms("alias/b"))), ["encryption"]);
    assert.deepEqual(fields(diff(kms("alias/a"), { name })), ["encryption"]);
  });

  test("lists differences in the order they must be applied, with their paths and values", () => {
    const d = diff(
      {
        name,
        policy: '{"a":1}',
        tagging: { tagSet: [{ key: "a", value: "1" }] },
        publicAccessBlock: { blockPublicPolicy: false },
        ownershipControls: { rules: [{ objectOwnership: "ObjectWriter" }] },
      },
      realS3Defaults,
    );
    assert.deepEqual(fields(d), ["ownershipControls", "publicAccessBlock", "tagging", "policy"]);
    assert.deepEqual(d[3], { field: "policy", path: "spec.policy", desired: '{"a":1}', observed: undefined });
  });
});

describe("lateInitialize", () => {
  test("copies S3's defaults into a spec that leaves them out, and says which", () => {
    const spec = { name, identityRef: { kind: "AWSRoleIdentity" as const, name: "central-it" } };
    const { spec: filled, initialized } = lateInitialize(spec, realS3Defaults);
    assert.deepEqual(initialized, ["ownershipControls", "publicAccessBlock", "encryption"]);
    assert.deepEqual(filled, { ...realS3Defaults, identityRef: spec.identityRef });
    assert.deepEqual(diff(filled, realS3Defaults), []);
    assert.deepEqual(spec, { name, identityRef: spec.identityRef }, "the input spec is not changed");
  });

  test("keeps what the spec sets, and never copies tags or policy", () => {
    const spec: BucketFields = { name, ownershipControls: { rules: [{ objectOwnership: "ObjectWriter" }] } };
    const observed: BucketFields = {
      ...realS3Defaults,
      tagging: { tagSet: [{ key: "a", value: "1" }] },
      policy: "{}",
      versioning: { status: "Enabled" },
    };
    const { spec: filled, initialized } = lateInitialize(spec, observed);
    assert.deepEqual(initialized, ["publicAccessBlock", "encryption", "versioning"]);
    assert.deepEqual(filled.ownershipControls, spec.ownershipControls);
    assert.equal(filled.tagging, undefined);
    assert.equal(filled.policy, undefined);
  });

  test("returns the same spec object when there is nothing to fill (moto's bare bucket)", () => {
    const spec: BucketFields = { name };
    const result = lateInitialize(spec, { name });
    assert.equal(result.spec, spec);
    assert.deepEqual(result.initialized, []);
  });
});

// ---- property: whatever the spec, applying it and reading it back shows no difference ----

const tagArb = fc.record({
  key: fc.stringMatching(/^[a-z0-9 _.:/=+@-]{1,20}$/).filter((k) => !k.startsWith("aws:")),
  value: fc.stringMatching(/^[A-Za-z0-9 _.:/=+@-]{0,20}$/),
});

const specArb: fc.Arbitrary<BucketFields> = fc.record(
  {
    name: fc.constant(name),
    tagging: fc.record({ tagSet: fc.uniqueArray(tagArb, { selector: (t) => t.key, maxLength: 8 }) }),
    versioning: fc.record({ status: fc.constantFrom("Enabled" as const, "Suspended" as const) }),
    encryption: fc.oneof(
      fc.record(
        {
          rules: fc.tuple(
            fc.record(
              {
                applyServerSideEncryptionByDefault: fc.constant({ sseAlgorithm: "AES256" as const }),
                bucketKeyEnabled: fc.boolean(),
              },
              { requiredKeys: ["applyServerSideEncryptionByDefault"] },
            ),
          ),
        },
        { requiredKeys: ["rules"] },
      ),
      fc.record({
        rules: fc.tuple(
          fc.record(
            {
              applyServerSideEncryptionByDefault: fc.record(
                {
                  sseAlgorithm: fc.constantFrom(...sseAlgorithms.filter((a) => a !== "AES256")),
                  kmsMasterKeyID: fc.constantFrom("alias/a", "arn:aws:kms:us-east-1:111111111111:key/k"),
                },
                { requiredKeys: ["sseAlgorithm"] },
              ),
              bucketKeyEnabled: fc.boolean(),
            },
            { requiredKeys: ["applyServerSideEncryptionByDefault"] },
          ),
        ),
      }),
    ),
    policy: fc.oneof(
      fc.constant(""),
      fc
        .dictionary(fc.stringMatching(/^[A-Za-z]{1,8}$/), fc.jsonValue(), { maxKeys: 4 })
        .map((o) => JSON.stringify(o)),
    ),
    publicAccessBlock: fc.record(
      {
        blockPublicACLs: fc.boolean(),
        blockPublicPolicy: fc.boolean(),
        ignorePublicACLs: fc.boolean(),
        restrictPublicBuckets: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    ownershipControls: fc.record({
      rules: fc.array(fc.record({ objectOwnership: fc.constantFrom(...objectOwnerships) }), { maxLength: 1 }),
    }),
  },
  { requiredKeys: ["name"] },
);

/**
 * A stand-in for S3, in-process: it keeps what each Put carried (a Delete removes it) and answers
 * each Get the way S3 does: tags in another order, flags all present, the policy reformatted,
 * bucketKeyEnabled always said. The module's update sends the spec to it; its read reads it back.
 */
function standInS3() {
  const held = new Map<string, Fields>();
  const kept = (operation: string, none: string): Fields => {
    const value = held.get(operation);
    if (value === undefined) throw awsError(none);
    return value;
  };
  return fakeSdk((call): Fields => {
    const { operation, input } = call;
    if (operation.startsWith("Put")) held.set(operation.replace(/^Put/, "Get"), input);
    if (operation.startsWith("Delete")) held.delete(operation.replace(/^Delete/, "Get"));
    switch (operation) {
      case "HeadBucket":
        return { BucketRegion: "us-east-1" };
      case "GetBucketTagging": {
        const tags = (kept("GetBucketTagging", "NoSuchTagSet")["Tagging"] as { TagSet: Fields[] }).TagSet;
        return { TagSet: [...tags].reverse() };
      }
      case "GetBucketVersioning": {
        const status = (held.get(operation)?.["VersioningConfiguration"] as Fields | undefined)?.["Status"];
        return status === undefined ? {} : { Status: status };
      }
      case "GetBucketEncryption": {
        const put = kept(operation, "ServerSideEncryptionConfigurationNotFoundError");
        const rules = (put["ServerSideEncryptionConfiguration"] as { Rules: Fields[] }).Rules;
        return {
          ServerSideEncryptionConfiguration: {
            Rules: rules.map((r) => ({ ...r, BucketKeyEnabled: r["BucketKeyEnabled"] ?? false })),
          },
        };
      }
      case "GetBucketPolicy":
        return {
          Policy: JSON.stringify(
            JSON.parse(String(kept(operation, "NoSuchBucketPolicy")["Policy"])),
            null,
            2,
          ),
        };
      case "GetPublicAccessBlock":
        return kept(operation, "NoSuchPublicAccessBlockConfiguration");
      case "GetBucketOwnershipControls":
        return kept(operation, "OwnershipControlsNotFoundError");
      // Never set here: S3's words for none.
      case "GetBucketWebsite":
        throw awsError("NoSuchWebsiteConfiguration");
      case "GetBucketCors":
        throw awsError("NoSuchCORSConfiguration");
      case "GetBucketLifecycleConfiguration":
        throw awsError("NoSuchLifecycleConfiguration");
      case "GetBucketReplication":
        throw awsError("ReplicationConfigurationNotFoundError");
      case "GetObjectLockConfiguration":
        throw awsError("ObjectLockConfigurationNotFoundError");
      default:
        return {};
    }
  });
}

/** The spec sent to a new stand-in S3 by the module's update, and read back by its read. */
async function applyAndReadBack(spec: BucketFields): Promise<BucketFields> {
  const s3 = standInS3();
  const module = declaredKindModule({ ...bucketSource, sdk: s3.sdk } as never) as typeof bucketService;
  const client = s3.client as DeclaredClient<never>;
  const bare = { fields: { name }, tags: {}, status: {}, arn: `arn:aws:s3:::${name}` };
  await module.update(client, spec, bare, {}, {}, noSecrets);
  const read = await module.read(client, { name }, {});
  assert.ok(read.found, "the stand-in S3 has the bucket");
  return read.observed.fields as unknown as BucketFields;
}

describe("round trip", () => {
  test("every generated spec is valid, and once applied reads back without a difference", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        assert.ok(bucketSpecSchema.safeParse(spec).success, JSON.stringify(spec));
        assert.deepEqual(diff(spec, await applyAndReadBack(spec)), []);
      }),
      { numRuns: 300 },
    );
  });

  test("a configuration read from S3, taken as the spec (adoption), shows no difference", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const observed = await applyAndReadBack(spec);
        assert.deepEqual(diff(observed, observed), []);
      }),
      { numRuns: 100 },
    );
  });

  test("a bare spec, late-initialised from any bucket, leaves only tags and policy to remove", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const observed = await applyAndReadBack(spec);
        const expected = [
          ...(observed.tagging === undefined ? [] : ["tagging"]),
          ...(observed.policy === undefined ? [] : ["policy"]),
        ];
        assert.deepEqual(fields(diff(lateInitialize({ name }, observed).spec, observed)), expected);
      }),
      { numRuns: 100 },
    );
  });
});

describe("afterApplying: what S3 holds after updateBucket, without reading it back", () => {
  test("whatever S3 had and the spec says, nothing differs afterwards, and what did not differ is untouched", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, specArb, async (desired, before) => {
        const observed = await applyAndReadBack(before);
        const after = afterApplying(desired, observed, {});
        assert.deepEqual(diff(desired, after), []);
        const changed = new Set(fields(diff(desired, observed)));
        for (const field of bucketSubresources) {
          if (!changed.has(field)) assert.deepEqual(after[field], observed[field], field);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("matches what a read after the Puts and Deletes gives (a stand-in S3 applying the spec)", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (desired) => {
        const after = afterApplying(desired, { name }, {});
        assert.deepEqual(diff(after, await applyAndReadBack(desired)), []);
        assert.deepEqual(diff(await applyAndReadBack(desired), after), []);
      }),
      { numRuns: 200 },
    );
  });

  test("tags are written with the ownership tags, and a 'none' form leaves nothing", () => {
    const owner = { "services.k8s.aws/owner-uid": "u1" };
    const observed: BucketFields = {
      name,
      tagging: { tagSet: [{ key: "old", value: "1" }] },
      policy: '{"a":1}',
      publicAccessBlock: { blockPublicACLs: true },
    };
    const after = afterApplying(
      { name, tagging: { tagSet: [{ key: "team", value: "x" }] }, policy: "", publicAccessBlock: {} },
      observed,
      owner,
    );
    assert.deepEqual(tagMapOf(after.tagging), { team: "x", "services.k8s.aws/owner-uid": "u1" });
    assert.equal(after.policy, undefined);
    assert.equal(after.publicAccessBlock, undefined);
    assert.deepEqual(observed.policy, '{"a":1}', "the observation itself is left as it was");
  });
});
