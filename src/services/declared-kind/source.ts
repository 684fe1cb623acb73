// What a kind served by the generic runtime is made of (CONTRIBUTING.md, "How a kind is made"):
// its declaration, what is generated from it, the SDK package, the kind's hooks for its genuine
// quirks; and what the runtime observes and the client it takes. Types only.
import type { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import type { KindDeclaration, RuntimeDeclaration } from "../../codegen/declaration.ts";
import type { DeclaredFieldGroups } from "../../codegen/drift-rules.ts";
import type { ResolvedRuntime } from "../../codegen/object-address.ts";
import type { SpecTagField } from "../../codegen/spec-tags.ts";
import type { ClientFactory } from "../../credentials/client-pool.ts";
import type { SendOptions } from "../call-context.ts";
import type { EqualHook } from "../declared-drift.ts";
import type { ReferenceField } from "../references.ts";
import type { ServiceModule } from "../service-module.ts";
import type { FieldCodecs } from "../shape-codec.ts";
import type { RemovedHook } from "./changed-input.ts";

/** What the generated module of a kind gives the runtime (src/services/<service>/generated/). */
export interface GeneratedKind<
  FieldSchemas extends Readonly<Record<string, z.ZodType>> = Readonly<Record<string, z.ZodType>>,
  StatusSchemas extends z.ZodRawShape = z.ZodRawShape,
> {
  readonly fieldSchemas: FieldSchemas;
  readonly statusSchemas: StatusSchemas;
  readonly codecs: FieldCodecs;
  readonly statusCodecs: FieldCodecs;
  readonly fieldGroups: DeclaredFieldGroups;
  readonly declared: {
    readonly identifier: string;
    readonly immutable: readonly string[];
    readonly lateInitialized: readonly string[];
    readonly specTags?: SpecTagField;
  };
  readonly references: readonly ReferenceField[];
  /** How each call names the object, read from the model (src/codegen/object-address.ts). */
  readonly runtime: ResolvedRuntime;
  /** Every spec field's AWS name (the generated `<prefix>AwsNames`), secrets included. */
  readonly awsNames?: Readonly<Record<string, string>>;
  /** The spec fields a string-valued attribute map holds (SQS's, SNS's), by attribute name. */
  readonly attributes?: {
    readonly member: string;
    readonly fields: Readonly<Record<string, string>>;
  };
}

/** A kind's genuine quirks. */
export interface DeclaredKindHooks {
  /**
   * The AWS identifier for the spec's, where AWS spells it otherwise (KMS: `alias/` before an
   * alias name that lacks it, as ACK adds it). The spec keeps its spelling.
   */
  readonly identifier?: (name: string) => string;
  /**
   * Spec fields the read answer holds in another shape (a subnet group's subnets as subnetIDs); a
   * field it gives as undefined is none.
   */
  readonly fieldsFromAnswer?: (answer: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /**
   * A group read by a call of its own, by that call, where its answer holds the group's fields in
   * another shape (DynamoDB's DescribeTimeToLive): the group's fields from the answer (absent: none).
   */
  readonly groupFieldsFromAnswer?: Readonly<Record<string, (answer: Fields) => Fields>>;
  /**
   * The create call's input as AWS takes it, from the runtime's (codecs, identifier, tags) and the
   * spec, in the region the object is created in (S3's LocationConstraint).
   */
  readonly createInput?: (input: Fields, spec: Fields, at: { readonly region: string }) => Fields;
  /**
   * A create refused before anything is sent (terminal, naming the field): a spec AWS would take
   * but for the wrong object (S3: a locationConstraint that is not the resource's region; ECR: a
   * registryId that is not the resource's account). `account`: where the client knows it.
   */
  readonly createRefused?: (
    spec: Fields,
    at: { readonly region: string; readonly account?: string },
  ) => Refusal | undefined;
  /**
   * The create denied (the code of `runtime.accessDenied`): what it means where the kind can tell
   * by asking (S3: a bucket name another account holds), else undefined for the denial itself.
   */
  readonly createDenied?: (denied: Failed, name: string, ask: Ask) => Promise<Refusal | undefined>;
  /** Status fields the read answer gives in another shape (a secret's current version, from its stages). */
  readonly statusFromAnswer?: (answer: Fields) => Fields;
  /** Status fields a create's answer gives (S3's `location`). */
  readonly createdStatus?: (answer: Fields, name: string) => Fields;
  /** Values a new object has that no read after the create asks for (runtime.afterCreate): S3's private ACL. */
  readonly knownAfterCreate?: (spec: Fields) => Fields;
  /**
   * Where the object lives, for a kind whose ARN does not say (S3's buckets: HeadBucket's
   * BucketRegion, else GetBucketLocation); undefined: the object went meanwhile.
   */
  readonly region?: (answer: Fields, name: string, ask: Ask) => Promise<string | undefined>;
  /**
   * The read denied: words saying the name is another account's (S3's global bucket names), which
   * reads as not found; undefined keeps the denial.
   */
  readonly readDenied?: (denied: Failed, name: string, ask: Ask) => Promise<string | undefined>;
  /** When AWS says the object was created, if the account lists it (ServiceModule.createdAt). */
  readonly createdAt?: (name: string, ask: Ask) => Promise<Date | undefined>;
  /**
   * Whether the spec's value of a field means none (S3's public access block with every flag
   * false), so that the group is removed; given the whole spec where another field stands for it.
   */
  readonly isNone?: Readonly<Record<string, (value: unknown, spec: Fields) => boolean>>;
  /**
   * What a field's change leaves AWS holding, where a read would give it in another form than the
   * spec's (runtime.appliedAtOnce; S3's ACL as grants): the fields to set (undefined: none).
   */
  readonly afterApplying?: Readonly<Record<string, (desired: Fields, observed: Fields) => Fields>>;
  /** More of an error than its code says (S3's PermanentRedirect: the region the bucket is in). */
  readonly errorDetail?: (code: string, err: unknown) => ErrorDetail | undefined;
  /**
   * A field's set call inputs where they are not its members as the codecs send them, one call each
   * in order, without the object's address; [] sends nothing (DynamoDB's indexes: one
   * GlobalSecondaryIndexUpdates action per UpdateTable).
   */
  readonly setInputs?: Readonly<Record<string, (desired: Fields, observed: Fields) => readonly Fields[]>>;
  /**
   * What must go before the object itself (a global table's replicas in other Regions): given what
   * the read answered, a call to send first and the error the delete then ends with (retried), or
   * undefined to delete the object now. Nothing is sent while the object is busy (runtime.states).
   */
  readonly deleteFirst?: (
    answer: Fields,
    at: { readonly region: string },
  ) =>
    | {
        readonly call: string;
        readonly input: Fields;
        readonly field: string;
        readonly error: { readonly code: string; readonly message: string };
      }
    | undefined;
  /**
   * What must be done before a set call (IAM keeps five versions of a policy: the oldest other than
   * the default goes before CreatePolicyVersion), through `ask`, naming the object by `address`.
   */
  readonly beforeSet?: Readonly<Record<string, (ask: Ask, address: Fields) => Promise<void>>>;
  /** What must go before the delete call (a policy's versions other than the default), as `beforeSet`. */
  readonly beforeDelete?: (ask: Ask, address: Fields) => Promise<void>;
  /** Compare hooks, one per field the declaration says is `custom`. */
  readonly equal?: Readonly<Record<string, EqualHook<Record<string, unknown>>>>;
  /**
   * What the delete call takes beyond the identifier, from the spec and the resource's annotations
   * (ECR's force delete of a repository that still holds images, as ACK has it).
   */
  readonly deleteInput?: (
    spec: Fields,
    annotations: Readonly<Record<string, string>>,
  ) => Fields | { readonly refused: string };
  /**
   * What a group sending only its changed fields (FieldGroup.send "changed") takes for a field the
   * spec left out, where it is computed (RDS's maxAllocatedStorage: the allocated storage, which
   * turns autoscaling off); undefined: nothing.
   */
  readonly removed?: Readonly<Record<string, RemovedHook>>;
  /**
   * The spec adoption writes, from what AWS has and the spec (RDS's managed password is left out
   * beside the spec's own Secret, which the schema refuses together).
   */
  readonly adoptedFields?: (fields: Fields, spec: Fields) => Fields;
  /** What AWS has, in spec form, adjusted where the service reports more than the spec can hold. */
  readonly observedFields?: (fields: Fields) => Fields;
  /**
   * The IDs of the objects in the client's account and region carrying tag `key` = `value`, for a
   * kind named by an ID AWS assigns (runtime.assigned): by the service's tag filter, or by reading
   * each object's tags where it has none (KMS's ListKeys, then ListResourceTags).
   */
  readonly findTagged?: (ask: Ask, key: string, value: string) => Promise<readonly string[]>;
  /**
   * Members the object's read answer lacks, read by the kind's own calls and merged into it, before
   * its fields and status are taken from it (EC2: whether a VPC's default security group has rules);
   * given the spec, so that nothing it does not ask about is read.
   */
  readonly answerMore?: (ask: Ask, answer: Fields, spec: Fields) => Promise<Fields>;
  /**
   * The groups the kind writes itself (FieldGroup.byHook), by set call: given the object's address
   * (its identifier), the spec and what AWS has in spec form (EC2's CIDR blocks: each added
   * associated, each removed disassociated by the ID of its association).
   */
  readonly writes?: Readonly<
    Record<string, (ask: Ask, address: string, desired: Fields, observed: Fields) => Promise<void>>
  >;
  /** ServiceModule.adoptionSeed: how ACK's adoption fields name the object, where not by its identifier. */
  readonly adoptionSeed?: ServiceModule<Fields, unknown, unknown>["adoptionSeed"];
}

export interface DeclaredKindSource<Sdk extends SdkClient> {
  readonly kind: ResourceKind;
  readonly declaration: KindDeclaration & { readonly runtime: RuntimeDeclaration };
  readonly generated: GeneratedKind;
  /** The SDK package: `sdk.<Operation>Command` makes each call. */
  readonly sdk: Readonly<Record<string, unknown>>;
  readonly clientFactory: ClientFactory<Sdk>;
  /** The kind's client, where it is more than the SDK client in the decision's region (S3: S3 Control on first use). */
  readonly client?: ServiceModule<Fields, DeclaredObserved, DeclaredClient<Sdk>>["client"];
  /** The second service's SDK package (runtime tags.client), imported on first use. */
  readonly moreSdk?: () => Promise<Readonly<Record<string, unknown>>>;
  readonly hooks?: DeclaredKindHooks;
  /**
   * The kind's own spec and status schemas, where it has value rules beyond the generated ones
   * (built on declaredKindSchemas); default: declaredKindSchemas.
   */
  readonly schemas?: { readonly spec: z.ZodType; readonly status: z.ZodType };
}

export type Fields = Record<string, unknown>;

/**
 * A call a hook makes through the runtime: logged with the object, aborted with the reconcile, a
 * failure the kind's error naming the call (and `field`).
 */
export type Ask = (
  call: string,
  input: Fields,
  o?: { readonly field?: string; readonly unlessGone?: true },
) => Promise<Fields | undefined>;

/** A failed call as the kind's error says it: its code and, where AWS answered, the HTTP status. */
export interface Failed {
  readonly code: string;
  readonly httpStatus: number | undefined;
}

/** A refusal the runtime turns into the kind's terminal error. */
export interface Refusal {
  readonly code: string;
  /** The spec field (`spec.name`). */
  readonly field: string;
  readonly message: string;
}

/** What an error's hint says beyond the declaration's, and members the error carries. */
export interface ErrorDetail {
  readonly hint?: string;
  readonly extra?: Fields;
}

/** What AWS has: the spec fields (tags as the spec holds them), every tag, status, the ARN. */
export interface DeclaredObserved {
  readonly fields: Fields;
  readonly tags: Readonly<Record<string, string>>;
  readonly status: Readonly<Record<string, unknown>>;
  readonly arn: string;
  /** The state that holds writes to it (runtime.states), in AWS's words; undefined: none. */
  readonly busy?: string;
  /** The handle other calls take, for a kind located by one (runtime.locate: a queue's URL). */
  readonly handle?: string;
  /** Where it lives, for a kind whose ARN does not say (the kind's `region` hook). */
  readonly region?: string;
}

/** The client the runtime's calls take; `account` for a kind addressed by ARN (runtime.byArn). */
export interface DeclaredClient<Sdk> {
  readonly sdk: Sdk;
  readonly region: string;
  readonly account?: string;
  /**
   * A second service's client, made on first use (runtime tags.client: S3 Control for a
   * directory bucket's tags), with the account it acts in.
   */
  readonly more?: () => Promise<{ readonly sdk: SdkClient; readonly account: string }>;
}

export interface SdkClient {
  send(command: unknown, options?: SendOptions): Promise<unknown>;
  readonly config: { region(): Promise<string> };
  destroy(): void;
}
