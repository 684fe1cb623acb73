// The Bucket kind: its declaration (bucket-declaration.ts) served by the generic runtime, plus
// S3's quirks as hooks: each sub-resource's Get answer in spec form (S3's "none" forms and IDs it
// makes up), what its Put takes where that is not the field as written (the ACL, Object Lock, the
// public access block, ownership controls, versioning), drift as S3 would behave, a bucket's
// region (HeadBucket, else GetBucketLocation), names held by another account (bucket names are
// global), CreateBucket's configuration (the region's LocationConstraint), and what a new bucket
// holds for sure (a private ACL).
import type { S3Client } from "@aws-sdk/client-s3";
import * as s3Sdk from "@aws-sdk/client-s3";
import { sameJson } from "../canonical-forms.ts";
import type { EqualHook } from "../declared-drift.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { Ask, DeclaredKindSource, Fields, SdkClient } from "../declared-kind/source.ts";
import type { SdkErrorLike } from "../service-error.ts";
import { aclAfterApplying, aclFromAws, grantFields, putBucketAclInput, sameAcl } from "./acl.ts";
import { bucketDeclaration } from "./bucket-declaration.ts";
import { s3ClientFactory } from "./client.ts";
import {
  type ConfigurationField,
  canonicalConfiguration,
  configurationFields,
  configurationFromAws,
  type PerIdField,
  perIdFields,
  perIdFromAws,
  pruned,
  sameConfiguration,
} from "./configuration-groups.ts";
import { directoryCreateProblem, isDirectoryBucketName } from "./directory-bucket.ts";
import { bucketFieldGroups, bucketGenerated } from "./generated/bucket-fields.ts";
import {
  objectLockAfterApplying,
  objectLockFromAws,
  putObjectLockInput,
  sameObjectLock,
  wantsObjectLock,
} from "./object-lock.ts";
import {
  type BucketFields,
  bucketKind,
  bucketSpecSchema,
  bucketStatusSchema,
  type OwnershipControls,
  objectOwnerships,
  type PublicAccessBlock,
  sseAlgorithms,
} from "./schema.ts";

/** The region S3 creates a bucket in when CreateBucket carries no LocationConstraint. */
const defaultBucketRegion = "us-east-1";

// ---- each sub-resource's Get answer in spec form (absent: none) ----

type Aws = Record<string, unknown>;
const list = (value: unknown): Aws[] => (Array.isArray(value) ? (value as Aws[]) : []);
const isOneOf = (values: readonly string[], value: unknown): value is string =>
  typeof value === "string" && values.includes(value);

/** A bucket never versioned answers without a Status. */
function versioningFromAws(out: Aws): Fields {
  const status = out["Status"];
  return { versioning: status === "Enabled" || status === "Suspended" ? { status } : undefined };
}

/** Algorithms crossrole does not know are left out; a KMS key of "" is S3's own. */
function encryptionFromAws(out: Aws): Fields {
  const rules = list((out["ServerSideEncryptionConfiguration"] as Aws | undefined)?.["Rules"]).flatMap(
    (rule) => {
      const byDefault = rule["ApplyServerSideEncryptionByDefault"] as Aws | undefined;
      const sseAlgorithm = byDefault?.["SSEAlgorithm"];
      if (!isOneOf(sseAlgorithms, sseAlgorithm)) return [];
      const key = byDefault?.["KMSMasterKeyID"];
      return [
        {
          applyServerSideEncryptionByDefault:
            typeof key === "string" && key !== "" ? { sseAlgorithm, kmsMasterKeyID: key } : { sseAlgorithm },
          ...(rule["BucketKeyEnabled"] === undefined ? {} : { bucketKeyEnabled: rule["BucketKeyEnabled"] }),
        },
      ];
    },
  );
  return { encryption: rules.length === 0 ? undefined : { rules } };
}

/** A flag S3 leaves out is not blocked. */
function publicAccessBlockFromAws(out: Aws): Fields {
  const c = out["PublicAccessBlockConfiguration"] as Aws | undefined;
  const flag = (member: string) => c?.[member] === true;
  return {
    publicAccessBlock:
      c === undefined
        ? undefined
        : {
            blockPublicACLs: flag("BlockPublicAcls"),
            blockPublicPolicy: flag("BlockPublicPolicy"),
            ignorePublicACLs: flag("IgnorePublicAcls"),
            restrictPublicBuckets: flag("RestrictPublicBuckets"),
          },
  };
}

/** Only the object ownerships crossrole knows. */
function ownershipControlsFromAws(out: Aws): Fields {
  const rules = list((out["OwnershipControls"] as Aws | undefined)?.["Rules"])
    .map((rule) => rule["ObjectOwnership"])
    .filter((o) => isOneOf(objectOwnerships, o))
    .map((objectOwnership) => ({ objectOwnership }));
  return { ownershipControls: rules.length === 0 ? undefined : { rules } };
}

/** Each configuration's members as its Put takes them, from its Get's answer. */
const configurationPicks: Readonly<Record<ConfigurationField, (out: Aws) => unknown>> = {
  abac: (out) => out["AbacStatus"],
  accelerate: (out) => ({ Status: out["Status"] }),
  cors: (out) => ({ CORSRules: out["CORSRules"] }),
  lifecycle: (out) => ({ Rules: out["Rules"] }),
  logging: (out) =>
    out["LoggingEnabled"] === undefined ? undefined : { LoggingEnabled: out["LoggingEnabled"] },
  notification: ({ $metadata: _, ...configuration }) => configuration,
  replication: (out) => out["ReplicationConfiguration"],
  requestPayment: (out) => (out["Payer"] === undefined ? undefined : { Payer: out["Payer"] }),
  website: ({ $metadata: _, ...configuration }) => configuration,
};

const groupFieldsFromAnswer: Record<string, (answer: Fields) => Fields> = {
  GetBucketVersioning: versioningFromAws,
  GetBucketEncryption: encryptionFromAws,
  GetPublicAccessBlock: publicAccessBlockFromAws,
  GetBucketOwnershipControls: ownershipControlsFromAws,
  GetBucketAcl: (out) => aclFromAws(out),
  GetObjectLockConfiguration: (out) => objectLockFromAws(out),
  GetBucketPolicy: (out) => ({ policy: out["Policy"] === "" ? undefined : out["Policy"] }),
};
for (const field of configurationFields) {
  const read = bucketFieldGroups.groups.find((g) => g.fields.some((f) => f.field === field))?.read;
  if (read !== undefined)
    groupFieldsFromAnswer[read] = (out) => ({
      [field]: configurationFromAws(field, configurationPicks[field](out)),
    });
}
// The per-ID lists: every page's items, in spec form, ordered by ID.
for (const group of bucketFieldGroups.groups) {
  const declared = bucketDeclaration.groups.find((g) => g.set === group.set);
  const field = group.fields[0]?.field as PerIdField;
  if (declared === undefined || !("items" in declared)) continue;
  const listed = declared.items.list;
  groupFieldsFromAnswer[group.read] = (out) => ({ [field]: perIdFromAws(field, list(out[listed])) });
}

// ---- "none" forms and what S3 holds after a write ----

function isNoPublicAccessBlock(block: PublicAccessBlock | undefined): boolean {
  return (
    block === undefined ||
    !(
      block.blockPublicACLs ||
      block.blockPublicPolicy ||
      block.ignorePublicACLs ||
      block.restrictPublicBuckets
    )
  );
}

function isNoOwnershipControls(controls: OwnershipControls | undefined): boolean {
  return controls === undefined || controls.rules.length === 0;
}

/** The ownership controls the spec asks for: its own, or CreateBucket's objectOwnership. */
function desiredOwnershipControls(spec: BucketFields): OwnershipControls | undefined {
  if (spec.ownershipControls !== undefined || spec.objectOwnership === undefined)
    return spec.ownershipControls;
  return { rules: [{ objectOwnership: spec.objectOwnership }] };
}

const asBucket = (spec: Fields) => spec as unknown as BucketFields;

const isNone: Record<string, (value: unknown, spec: Fields) => boolean> = {
  publicAccessBlock: (value) => isNoPublicAccessBlock(value as PublicAccessBlock | undefined),
  ownershipControls: (_, spec) => isNoOwnershipControls(desiredOwnershipControls(asBucket(spec))),
  ...Object.fromEntries(
    configurationFields.map((f) => [f, (value: unknown) => canonicalConfiguration(f, value) === undefined]),
  ),
  ...Object.fromEntries(perIdFields.map((f) => [f, (value: unknown) => list(value).length === 0])),
};

/** What S3 holds after a write whose read form is not the spec's. */
const afterApplying: Record<string, (desired: Fields, observed: Fields) => Fields> = {
  acl: (desired) => {
    const acl = aclAfterApplying(asBucket(desired));
    return Object.fromEntries(["acl", ...grantFields].map((f) => [f, acl[f as keyof typeof acl]]));
  },
  objectLockConfiguration: (desired, observed) =>
    wantsObjectLock(asBucket(desired)) || observed["objectLockEnabledForBucket"] === true
      ? { ...objectLockAfterApplying(asBucket(desired)) }
      : {},
  ownershipControls: (desired) => {
    const controls = desiredOwnershipControls(asBucket(desired));
    return { ownershipControls: isNoOwnershipControls(controls) ? undefined : controls };
  },
};

// ---- what each Put takes, where not the field as written ----

const setInputs: Record<string, (desired: Fields) => readonly Fields[]> = {
  acl: (desired) => [putBucketAclInput(String(desired["name"]), asBucket(desired)) as unknown as Fields],
  objectLockConfiguration: (desired) => [
    putObjectLockInput(String(desired["name"]), asBucket(desired)) as unknown as Fields,
  ],
  // Every flag is sent: one left out would be reset to false by S3 anyway.
  publicAccessBlock: (desired) => {
    const block = asBucket(desired).publicAccessBlock;
    return [
      {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: block?.blockPublicACLs ?? false,
          IgnorePublicAcls: block?.ignorePublicACLs ?? false,
          BlockPublicPolicy: block?.blockPublicPolicy ?? false,
          RestrictPublicBuckets: block?.restrictPublicBuckets ?? false,
        },
      },
    ];
  },
  ownershipControls: (desired) => [
    {
      OwnershipControls: {
        Rules: (desiredOwnershipControls(asBucket(desired))?.rules ?? []).map((r) => ({
          ObjectOwnership: r.objectOwnership,
        })),
      },
    },
  ],
  // Status only: MFADelete needs S3's MFA header, which crossrole never sends.
  versioning: (desired) => [{ VersioningConfiguration: { Status: asBucket(desired).versioning?.status } }],
};

// ---- drift: equal exactly when S3 would behave the same ----

/** A late-initialised sub-resource: equal while the spec leaves it out, else by `canonical`. */
const keptUnlessSet =
  (field: string, canonical: (value: never) => unknown): EqualHook<Fields> =>
  (desired, observed) =>
    desired[field] === undefined ||
    sameJson(canonical(desired[field] as never), canonical(observed[field] as never));

/** An absent block and an absent flag both mean "not blocked". */
function canonicalBlock(block: PublicAccessBlock | undefined): boolean[] {
  return [
    block?.blockPublicACLs ?? false,
    block?.blockPublicPolicy ?? false,
    block?.ignorePublicACLs ?? false,
    block?.restrictPublicBuckets ?? false,
  ];
}

function canonicalOwnership(controls: OwnershipControls | undefined): string | null {
  return isNoOwnershipControls(controls) ? null : (controls?.rules[0]?.objectOwnership ?? null);
}

/** A per-ID list compares as a map: S3 lists the configurations in its own order. */
function canonicalPerId(items: unknown): unknown {
  if (list(items).length === 0) return null;
  const id = (item: Aws) => String(item["id"]);
  return [...list(items)].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0)).map(pruned);
}

const equal: Record<string, EqualHook<Fields>> = {
  ...Object.fromEntries(
    configurationFields.map((f) => [f, (d: Fields, o: Fields) => sameConfiguration(f, d[f], o[f])]),
  ),
  ...Object.fromEntries(
    perIdFields.map((f: PerIdField) => [
      f,
      (d: Fields, o: Fields) => sameJson(canonicalPerId(d[f]), canonicalPerId(o[f])),
    ]),
  ),
  ownershipControls: (desired, observed) => {
    const want = desiredOwnershipControls(asBucket(desired));
    return (
      want === undefined ||
      canonicalOwnership(want) === canonicalOwnership(asBucket(observed).ownershipControls)
    );
  },
  publicAccessBlock: keptUnlessSet("publicAccessBlock", canonicalBlock),
  acl: (desired, observed) => sameAcl(asBucket(desired), asBucket(observed)),
  // An absent bucketKeyEnabled is false; an absent KMS key is S3's managed key.
  encryption: keptUnlessSet("encryption", (e: BucketFields["encryption"]) =>
    (e?.rules ?? []).map((rule) => ({
      sseAlgorithm: rule.applyServerSideEncryptionByDefault.sseAlgorithm,
      kmsMasterKeyID: rule.applyServerSideEncryptionByDefault.kmsMasterKeyID ?? null,
      bucketKeyEnabled: rule.bucketKeyEnabled ?? false,
    })),
  ),
  // A bucket never versioned behaves as a suspended one; S3 cannot return it to "never".
  versioning: keptUnlessSet("versioning", (v: BucketFields["versioning"]) => v?.status ?? "Suspended"),
  objectLockConfiguration: (desired, observed) => sameObjectLock(asBucket(desired), asBucket(observed)),
};

// ---- a bucket's name and region: global names, regional buckets ----

/** Whether this account lists the bucket, and when S3 says it created it. */
async function listed(name: string, ask: Ask): Promise<{ readonly at?: Date } | undefined> {
  const out = await ask("ListBuckets", { Prefix: name });
  const entry = list(out?.["Buckets"]).find((b) => b["Name"] === name);
  if (entry === undefined) return undefined;
  const at = entry["CreationDate"];
  return at instanceof Date && !Number.isNaN(at.getTime()) ? { at } : {};
}

/**
 * HeadBucket denied, and the name not among this account's buckets: another account holds it.
 * Listed, or the list failing too, the denial stands: nothing may be concluded about whose it is.
 */
async function heldByAnotherAccount(name: string, ask: Ask): Promise<boolean> {
  try {
    return (await listed(name, ask)) === undefined;
  } catch {
    return false;
  }
}

/** The region S3 named in a redirect (x-amz-bucket-region), if any. */
function redirectRegion(err: unknown): string | undefined {
  return ((err ?? {}) as SdkErrorLike).$response?.headers?.["x-amz-bucket-region"];
}

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const bucketSource = {
  kind: bucketKind,
  declaration: bucketDeclaration,
  generated: bucketGenerated,
  sdk: s3Sdk,
  clientFactory: s3ClientFactory,
  // S3, and S3 Control for a directory bucket's tags, made on its first use in the account the
  // decision names, or the caller's (a failure is not kept: the next call asks again).
  async client(credentials, decision, resource) {
    const sdk = await credentials.client(s3ClientFactory, decision, resource);
    let made: Promise<{ sdk: SdkClient; account: string }> | undefined;
    const control = async () => {
      const { s3ControlClientFactory } = await import("./control-client.ts");
      const client = await credentials.client(s3ControlClientFactory, decision, resource);
      const account = decision.account ?? (await credentials.callerIdentity(decision, resource)).account;
      return { sdk: client, account };
    };
    return {
      sdk,
      region: await sdk.config.region(),
      more: () => {
        made ??= control().catch((err: unknown) => {
          made = undefined;
          throw err;
        });
        return made;
      },
    };
  },
  moreSdk: () => import("@aws-sdk/client-s3-control"),
  // S3's naming rules, create-only fields, per-ID list keys, directory buckets (schema.ts).
  schemas: { spec: bucketSpecSchema, status: bucketStatusSchema },
  hooks: {
    groupFieldsFromAnswer,
    setInputs,
    equal,
    isNone,
    afterApplying,
    // HeadBucket's BucketRegion; S3-compatible stores that do not send it: GetBucketLocation.
    async region(answer, name, ask) {
      const region = answer["BucketRegion"];
      if (typeof region === "string" && region !== "") return region;
      const location = await ask("GetBucketLocation", { Bucket: name }, { unlessGone: true });
      if (location === undefined) return undefined;
      const constraint = location["LocationConstraint"];
      if (typeof constraint !== "string" || constraint === "") return defaultBucketRegion;
      return constraint === "EU" ? "eu-west-1" : constraint;
    },
    async readDenied(denied, name, ask) {
      if (denied.httpStatus !== 403 || !(await heldByAnotherAccount(name, ask))) return undefined;
      return `bucket name "${name}" is owned by another AWS account (it exists, and this account does not list it); bucket names are global across all accounts`;
    },
    // CreateBucket answers AccessDenied both when the identity may not create buckets and when
    // another account owns the name (moto): a name that exists (HeadBucket 403) and is not listed is taken.
    async createDenied(denied, name, ask) {
      if (denied.code !== "AccessDenied" || isDirectoryBucketName(name)) return undefined;
      try {
        await ask("HeadBucket", { Bucket: name });
        return undefined;
      } catch (err) {
        if ((err as { httpStatus?: number }).httpStatus !== 403) return undefined;
      }
      if (!(await heldByAnotherAccount(name, ask))) return undefined;
      return {
        code: "BucketAlreadyExists",
        field: "spec.name",
        message: `spec.name: bucket name "${name}" is taken by another AWS account (CreateBucket was denied, the bucket exists and is not among this account's buckets); bucket names are global across all accounts: choose another name`,
      };
    },
    createdAt: async (name, ask) => (await listed(name, ask))?.at,
    createRefused(spec, { region }) {
      const bucket = asBucket(spec);
      const directory = directoryCreateProblem(bucket);
      if (directory !== undefined)
        return { code: "InvalidRequest", field: "spec.createBucketConfiguration", message: directory };
      const constraint = bucket.createBucketConfiguration?.locationConstraint;
      const constrained = constraint === "EU" ? "eu-west-1" : constraint;
      if (constrained === undefined || constrained === region) return undefined;
      return {
        code: "IllegalLocationConstraintException",
        field: "spec.createBucketConfiguration.locationConstraint",
        message: `spec.createBucketConfiguration.locationConstraint: "${constraint}" is not the resource's region ${region} (the services.k8s.aws/region annotation, or the namespace's or controller's default): S3 creates a bucket in the region it is asked in; make them agree, or remove locationConstraint`,
      };
    },
    // The location and bucket type as the spec gives them, the tags, and the region as the
    // LocationConstraint (never us-east-1's; a directory bucket's place is its zone).
    createInput(input, _spec, { region }) {
      const { CreateBucketConfiguration: given = {}, ...rest } = input as { CreateBucketConfiguration?: Aws };
      const { LocationConstraint: _, ...kept } = given;
      const configuration = {
        ...kept,
        ...(region === defaultBucketRegion || isDirectoryBucketName(String(input["Bucket"]))
          ? {}
          : { LocationConstraint: region }),
      };
      return Object.keys(configuration).length === 0
        ? rest
        : { ...rest, CreateBucketConfiguration: configuration };
    },
    createdStatus: (answer, name) => ({
      location:
        typeof answer["Location"] === "string" && answer["Location"] !== "" ? answer["Location"] : `/${name}`,
    }),
    // What the create fixed: no ACL beyond the owner's (it sends none), Object Lock as asked.
    knownAfterCreate: (spec) =>
      isDirectoryBucketName(String(spec["name"]))
        ? {}
        : {
            acl: "private",
            ...(spec["objectLockEnabledForBucket"] === true ? { objectLockEnabledForBucket: true } : {}),
          },
    // S3's ACL reads back in both forms; a spec takes one (the canned ACL where there is one).
    adoptedFields: (fields) =>
      fields["acl"] === undefined
        ? fields
        : Object.fromEntries(
            Object.entries(fields).filter(([f]) => !(grantFields as readonly string[]).includes(f)),
          ),
    errorDetail(code, err) {
      const region = code === "PermanentRedirect" ? redirectRegion(err) : undefined;
      return region === undefined
        ? undefined
        : { hint: ` (the bucket lives in region ${region})`, extra: { bucketRegion: region } };
    },
  },
} satisfies DeclaredKindSource<S3Client>;

export const bucketService = declaredKindModule(bucketSource);
