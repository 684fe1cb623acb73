// The SDK input crossrole builds for each configuration, checked on a recording client: the
// emulator implements neither ABAC, request payment, nor the analytics, metrics and
// Intelligent-Tiering calls, so this is where their exact input is pinned.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { S3Client } from "@aws-sdk/client-s3";
import { diff, readBucket, updateBucket } from "../../../test/support/bucket-shims.ts";
import { awsError } from "../../../test/support/fake-sdk.ts";
import { buckets } from "../../../test/support/s3-buckets.ts";
import {
  type ConfigurationField,
  configurationFields,
  type PerIdField,
  perIdFields,
  sameConfiguration,
} from "./configuration-groups.ts";
import { bucketFieldGroups } from "./generated/bucket-fields.ts";
import { type BucketFields, bucketSpecSchema } from "./schema.ts";

/** An S3 client recording each call and answering none of anything (`fail`'s call: refused). */
function recordingClient(fail?: string): { client: S3Client; sent: [string, unknown][] } {
  const sent: [string, unknown][] = [];
  const client = {
    config: { region: async () => "us-east-1" },
    send: async (command: { constructor: { name: string }; input: unknown }) => {
      const operation = command.constructor.name.replace(/Command$/, "");
      sent.push([operation, command.input]);
      if (operation === fail) throw awsError("AccessDenied");
      return {};
    },
  } as unknown as S3Client;
  return { client, sent };
}

const spec = (fields: Record<string, unknown>): BucketFields =>
  bucketSpecSchema.parse({ name: "b-unit", ...fields }) as BucketFields;

describe("configuration groups: what is sent", () => {
  test("each configuration is put whole, from the generated codec", async () => {
    const { client, sent } = recordingClient();
    const desired = spec({
      abac: { status: "Enabled" },
      requestPayment: { payer: "Requester" },
      analytics: [
        {
          id: "a1",
          filter: { prefix: "logs/" },
          storageClassAnalysis: {
            dataExport: {
              outputSchemaVersion: "V_1",
              destination: {
                s3BucketDestination: { bucket: "arn:aws:s3:::dest", format: "CSV", prefix: "x" },
              },
            },
          },
        },
      ],
      metrics: [{ id: "m1", filter: { prefix: "p/" } }],
      intelligentTiering: [
        { id: "t1", status: "Enabled", tierings: [{ days: 90, accessTier: "ARCHIVE_ACCESS" }] },
      ],
    });
    await updateBucket(buckets(client), desired, { name: "b-unit" });
    assert.deepEqual(sent, [
      ["PutBucketAbac", { Bucket: "b-unit", AbacStatus: { Status: "Enabled" } }],
      ["PutBucketRequestPayment", { Bucket: "b-unit", RequestPaymentConfiguration: { Payer: "Requester" } }],
      [
        "PutBucketAnalyticsConfiguration",
        {
          Bucket: "b-unit",
          Id: "a1",
          AnalyticsConfiguration: {
            Id: "a1",
            Filter: { Prefix: "logs/" },
            StorageClassAnalysis: {
              DataExport: {
                OutputSchemaVersion: "V_1",
                Destination: {
                  S3BucketDestination: { Bucket: "arn:aws:s3:::dest", Format: "CSV", Prefix: "x" },
                },
              },
            },
          },
        },
      ],
      [
        "PutBucketIntelligentTieringConfiguration",
        {
          Bucket: "b-unit",
          Id: "t1",
          IntelligentTieringConfiguration: {
            Id: "t1",
            Status: "Enabled",
            Tierings: [{ Days: 90, AccessTier: "ARCHIVE_ACCESS" }],
          },
        },
      ],
      [
        "PutBucketMetricsConfiguration",
        { Bucket: "b-unit", Id: "m1", MetricsConfiguration: { Id: "m1", Filter: { Prefix: "p/" } } },
      ],
    ]);
  });

  test("removed from the spec: Delete where S3 has one, else S3's 'none' put; per-ID lists delete by ID", async () => {
    const { client, sent } = recordingClient();
    const observed = spec({
      abac: { status: "Enabled" },
      accelerate: { status: "Enabled" },
      requestPayment: { payer: "Requester" },
      logging: { loggingEnabled: { targetBucket: "logs", targetPrefix: "b/" } },
      notification: {
        queueConfigurations: [{ queueARN: "arn:aws:sqs:us-east-1:1:q", events: ["s3:ObjectCreated:*"] }],
      },
      cors: { corsRules: [{ allowedMethods: ["GET"], allowedOrigins: ["*"] }] },
      metrics: [{ id: "m1" }, { id: "m2" }],
    });
    await updateBucket(buckets(client), spec({ metrics: [{ id: "m2" }] }), observed);
    assert.deepEqual(sent, [
      ["PutBucketAbac", { Bucket: "b-unit", AbacStatus: { Status: "Disabled" } }],
      [
        "PutBucketAccelerateConfiguration",
        { Bucket: "b-unit", AccelerateConfiguration: { Status: "Suspended" } },
      ],
      ["DeleteBucketCors", { Bucket: "b-unit" }],
      ["PutBucketLogging", { Bucket: "b-unit", BucketLoggingStatus: {} }],
      ["PutBucketNotificationConfiguration", { Bucket: "b-unit", NotificationConfiguration: {} }],
      [
        "PutBucketRequestPayment",
        { Bucket: "b-unit", RequestPaymentConfiguration: { Payer: "BucketOwner" } },
      ],
      ["DeleteBucketMetricsConfiguration", { Bucket: "b-unit", Id: "m1" }],
    ]);
  });

  test("a replication the spec removes goes before suspending versioning (S3 refuses the other order)", async () => {
    const { client, sent } = recordingClient();
    const observed = {
      ...spec({ versioning: { status: "Enabled" } }),
      replication: {
        role: "arn:aws:iam::1:role/r",
        rules: [{ status: "Enabled", destination: { bucket: "x" } }],
      },
    } as BucketFields;
    await updateBucket(buckets(client), spec({ versioning: { status: "Suspended" } }), observed);
    assert.deepEqual(
      sent.map(([op]) => op),
      ["DeleteBucketReplication", "PutBucketVersioning"],
    );
  });
});

describe("configuration groups: what compares equal", () => {
  test("S3's defaults are none: accelerate Suspended, ABAC Disabled, the owner paying", () => {
    assert.deepEqual(
      diff(spec({}), spec({ accelerate: { status: "Suspended" }, abac: { status: "Disabled" } })),
      [],
    );
    assert.deepEqual(diff(spec({ requestPayment: { payer: "BucketOwner" } }), spec({})), []);
  });

  test("IDs S3 gives rules the spec left unnamed are not drift; a filter rule name's case is not either", () => {
    assert.equal(
      sameConfiguration(
        "lifecycle",
        { rules: [{ status: "Enabled", expiration: { days: 3 } }] },
        { rules: [{ id: "S3-made-up", status: "Enabled", expiration: { days: 3 } }] },
      ),
      true,
    );
    const notification = (name: string, id?: string) => ({
      queueConfigurations: [
        {
          ...(id ? { id } : {}),
          queueARN: "arn:aws:sqs:us-east-1:1:q",
          events: ["s3:ObjectCreated:*"],
          filter: { key: { filterRules: [{ name, value: "x/" }] } },
        },
      ],
    });
    assert.equal(
      sameConfiguration("notification", notification("prefix"), notification("Prefix", "gen")),
      true,
    );
    assert.equal(
      sameConfiguration("notification", notification("prefix", "mine"), notification("Prefix", "gen")),
      false,
    );
  });

  test("per-ID lists compare as maps: S3's order is not drift, a changed item is", () => {
    assert.deepEqual(
      diff(spec({ metrics: [{ id: "b" }, { id: "a" }] }), spec({ metrics: [{ id: "a" }, { id: "b" }] })),
      [],
    );
    assert.deepEqual(
      diff(spec({ metrics: [{ id: "a", filter: { prefix: "x" } }] }), spec({ metrics: [{ id: "a" }] })).map(
        (d) => d.path,
      ),
      ["spec.metrics"],
    );
  });
});

describe("configuration groups: the declaration's calls", () => {
  const declared = new Map(bucketFieldGroups.groups.map((g) => [g.fields[0]?.field, g]));

  /** A value of each configuration S3 holds (none of them S3's "none"). */
  const values: Readonly<Record<ConfigurationField | PerIdField, unknown>> = {
    abac: { status: "Enabled" },
    accelerate: { status: "Enabled" },
    cors: { corsRules: [{ allowedMethods: ["GET"], allowedOrigins: ["*"] }] },
    lifecycle: { rules: [{ id: "r1", status: "Enabled", expiration: { days: 3 } }] },
    logging: { loggingEnabled: { targetBucket: "logs", targetPrefix: "b/" } },
    notification: {
      queueConfigurations: [{ queueARN: "arn:aws:sqs:us-east-1:1:q", events: ["s3:ObjectCreated:*"] }],
    },
    replication: {
      role: "arn:aws:iam::1:role/r",
      rules: [{ status: "Enabled", destination: { bucket: "x" } }],
    },
    requestPayment: { payer: "Requester" },
    website: { indexDocument: { suffix: "index.html" } },
    analytics: [{ id: "a1", storageClassAnalysis: {} }],
    intelligentTiering: [
      { id: "t1", status: "Enabled", tierings: [{ days: 90, accessTier: "ARCHIVE_ACCESS" }] },
    ],
    inventory: [
      {
        id: "i1",
        isEnabled: true,
        includedObjectVersions: "All",
        schedule: { frequency: "Daily" },
        destination: { s3BucketDestination: { bucket: "arn:aws:s3:::crossrole-inventory", format: "CSV" } },
      },
    ],
    metrics: [{ id: "m1" }],
  };

  /**
   * The calls the module makes for `field`: the read's (each call that, refused, fails the read
   * naming the field), the one an update setting it sends, and the one its removal sends
   * (undefined where that is the set call with S3's "none").
   */
  async function callsFor(field: ConfigurationField | PerIdField) {
    const read = async (fail?: string) => {
      const { client, sent } = recordingClient(fail);
      const error = await readBucket(buckets(client), { name: "b-unit" }).then(
        () => undefined,
        (err: unknown) => err as { readonly field?: string },
      );
      return { sent: sent.map(([op]) => op), error };
    };
    const { sent: reads } = await read();
    const refused = await Promise.all(
      reads.filter((op) => op !== "HeadBucket").map(async (op) => ({ op, error: (await read(op)).error })),
    );
    const get = refused.filter((r) => r.error?.field === `spec.${field}`).map((r) => r.op);
    const value = spec({ [field]: values[field] });
    const put = recordingClient();
    await updateBucket(buckets(put.client), value, { name: "b-unit" });
    const removal = recordingClient();
    await updateBucket(buckets(removal.client), spec({}), value);
    const set = put.sent.map(([op]) => op).join(", ");
    const removedBy = removal.sent.map(([op]) => op).join(", ");
    return { get: get.join(", "), put: set, remove: removedBy === set ? undefined : removedBy };
  }

  test("each configuration is read, put and removed with the calls bucket-declaration.ts names", async () => {
    for (const field of configurationFields) {
      const d = declared.get(field);
      assert.ok(d, `${field} has a declared group`);
      const group = await callsFor(field);
      assert.deepEqual(
        {
          get: group.get,
          put: group.put,
          remove: group.remove,
        },
        { get: d.read, put: d.set, remove: "remove" in d ? d.remove : undefined },
        field,
      );
    }
  });

  test("each per-ID configuration is listed, put and deleted with the declared calls", async () => {
    for (const field of perIdFields) {
      const d = declared.get(field);
      assert.ok(d, `${field} has a declared group`);
      const group = await callsFor(field);
      assert.deepEqual(
        { list: group.get, put: group.put, delete: group.remove },
        { list: d.read, put: d.set, delete: "remove" in d ? d.remove : undefined },
        field,
      );
    }
  });
});
