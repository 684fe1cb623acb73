// What a kind declares (CONTRIBUTING.md, "How a kind is made"): where its spec fields come from in the AWS API model, ACK's
// renames, which fields are immutable, and the AWS names of the attributes it keeps in a
// string map (SQS, SNS). Everything else about a field — its JSON type and shape, its
// description, AWS's constraints — is read from the model by field-tree.ts.
import type { Absence, DefaultValue, DriftForm } from "./drift-rules.ts";

/** The members of one model structure, as spec fields (ACK: the create call's input first). */
export interface MembersSource {
  readonly members: string;
  /** Only these members (AWS names); default: all. */
  readonly only?: readonly string[];
  /** Members left out (AWS names), such as the ones another source provides. */
  readonly ignore?: readonly string[];
}

/**
 * One spec field whose value is a whole model shape, as ACK gives an S3 bucket's sub-resources
 * (`lifecycle` is PutBucketLifecycleConfiguration's `LifecycleConfiguration`).
 */
export type ShapeSource =
  | {
      /** The field's AWS-style name; its spec name follows ACK's convention unless renamed. */
      readonly field: string;
      /**
       * `<Operation or Structure>.<Member>` whose shape and documentation the field takes; a
       * structure alone, the whole structure (ACK's `from: {operation, path: .}`: a Lambda
       * function's event invoke configuration is PutFunctionEventInvokeConfig's whole input).
       */
      readonly from: string;
    }
  | {
      readonly field: string;
      /** A map of names to this shape's values (ACK's `custom_field: map_of`; IAM's inline policies). */
      readonly mapOf: string;
      readonly doc: string;
    }
  | {
      readonly field: string;
      /** A list of this shape (ACK's `custom_field: list_of`), documented by `doc`. */
      readonly listOf: string;
      /** Members of the structure left out of the items (AWS names): the object's own name, say. */
      readonly ignore?: readonly string[];
      readonly doc: string;
    };

/**
 * Keys of a string-valued attribute map (SQS's and SNS's `Attributes`): each named attribute is
 * a string spec field, documented by the map member's list of attributes.
 */
export interface AttributesSource {
  /** `<Operation or Structure>.<Member>` holding the map and the list that documents its keys. */
  readonly attributes: string;
  /** Further `<Structure>.<Member>` documents to read entries from (e.g. SetTopicAttributes). */
  readonly documentedAlsoBy?: readonly string[];
  readonly names: readonly string[];
}

/**
 * A field the model lacks (an SDK-side parameter, such as RDS's SourceRegion for presigning); a
 * dotted path adds a member to a structure field another source gives (ACK's Lambda
 * `Code.SHA256`, which says which code the function should run).
 */
export interface CustomSource {
  readonly field: string;
  readonly custom: "string" | "integer" | "boolean";
  readonly doc: string;
}

export type SpecSource = MembersSource | ShapeSource | AttributesSource | CustomSource;

/**
 * A field that references another ACK kind (ACK's `<field>Ref`, `{from: {name, namespace}}`):
 * the AWS name of the plain field it stands for, and the kind it names.
 */
export interface ReferenceDeclaration {
  /** The AWS path of the plain field (`KmsKeyId`, `Replication.Role`). */
  readonly field: string;
  readonly service: string;
  readonly kind: string;
  /**
   * The plain field takes the referenced object's ARN (ACK's `path: Status.ACKResourceMetadata.ARN`:
   * a role's, a policy's, a key's), or a field of the referenced resource's spec (ACK's
   * `path: Spec.PolicyDocument`: a queue's access policy from an IAM Policy's document), by its
   * spec name; by default the AWS name its spec holds.
   */
  readonly fills?: "arn" | { readonly spec: string };
  /**
   * Needed only by a group written after the create (a security group's rules naming groups): the
   * object is made without waiting for it, and while it cannot be resolved the group is left as
   * AWS has it and the resource says what it waits for. The referenced object need only have its
   * ID recorded (and carry its resource's tags in AWS), not be Synced: two groups naming each
   * other, or a group naming itself, each resolve once made.
   */
  readonly afterCreate?: true;
}

/**
 * The status fields a kind fills from what AWS reports (ACK's status fields): members of a read
 * call's output structure. Their types follow the model, without its constraints: status
 * records what AWS says, including values newer than the model.
 */
export interface StatusSource {
  /** The output structure (`TableDescription`). */
  readonly from: string;
  /** Its members that become status fields (AWS names). */
  readonly only: readonly string[];
  /** Status name by AWS path from the status's root, where ACK departs from its convention. */
  readonly renames?: Readonly<Record<string, string>>;
}

export interface DriftRule {
  readonly form?: DriftForm;
  readonly absent?: Absence;
  /** The value AWS takes when a side has none (SQS's "false", DynamoDB's table class STANDARD). */
  readonly default?: DefaultValue;
  /**
   * Compared by the kind's own hook instead, for this reason (it goes into the docs); the
   * generated drift will not build without the hook.
   */
  readonly custom?: string;
  // What a group that sends only its changed fields (`FieldGroup.send: "changed"`) sends for this one:
  /** The set call's member for it, where it is not the create call's (RDS's Port: DBPortNumber). */
  readonly setAs?: string;
  /**
   * A set-form field the set call takes as a change (RDS's log exports): `add` the values the spec
   * has and AWS lacks, `remove` those AWS has and the spec lacks, each sorted, under `member`.
   */
  readonly change?: { readonly member: string; readonly add: string; readonly remove: string };
  /**
   * Sent beside a change of it (not its removal): constant members, and other fields' values where
   * the spec has them (RDS: AllowMajorVersionUpgrade with EngineVersion; a TDE ARN's password).
   */
  readonly with?: {
    readonly input?: Readonly<Record<string, unknown>>;
    readonly fields?: readonly string[];
  };
  /**
   * What the set call takes when the spec leaves the field out (RDS's Domain: DisableDomain).
   * Default: its `default` under its member, where it has one; else the kind's `removed` hook, else
   * nothing (AWS keeps it).
   */
  readonly removedAs?: Readonly<Record<string, unknown>>;
}

/**
 * A group of spec fields one AWS call changes after creation: the call, the one that reads them
 * back, the one that removes them where it is not `set` with the none value, and how each field
 * compares for drift.
 */
export interface FieldGroup {
  readonly set: string;
  readonly read: string;
  readonly remove?: string;
  /** The fields by AWS name (top level), in the order updates apply them; `{}`: compared by value. */
  readonly fields: Readonly<Record<string, DriftRule>>;
  /**
   * Error codes (without "Fault"/"Exception") the group's own read and remove calls answer when
   * the object has none of its fields (ECR's LifecyclePolicyNotFound): not the object's absence.
   */
  readonly notFound?: readonly string[];
  /**
   * The set call takes one change at a time (DynamoDB's UpdateTable; EC2's ModifyInstanceAttribute):
   * each differing field is sent on its own, in order (by the kind's `setInputs` hook where it has
   * one, which may send several calls), and after a call whose answered object is busy
   * (`runtime.objectIn`, `runtime.states`) the update stops: the rest is for the next reconcile.
   */
  readonly oneChangePerCall?: true;
  /**
   * What the set call takes, under its own members, when the spec leaves the group's fields out
   * (or gives their none value) and the group has no remove call: what AWS means by none (S3's
   * accelerate `{Status: "Suspended"}`, an empty logging status `{}`).
   */
  readonly noneAs?: Readonly<Record<string, unknown>>;
  /** Removed, this group goes before every other group's change (S3 suspends versioning only without replication). */
  readonly removeFirst?: true;
  /**
   * A list field of items AWS keeps one per ID (S3's inventory configurations): read page by page
   * (`list` in each answer; `page`: the token the answer gives and the next call takes, while
   * `more` is true), each new or changed item set on its own (`{[id]: its ID, [member]: item}`),
   * each ID AWS has and the spec lacks removed (`{[id]}`).
   */
  readonly items?: {
    readonly id: string;
    /** The set call's member taking the item; absent: the call takes the item's members as its own. */
    readonly member?: string;
    /**
     * What AWS reports for an item member the spec leaves out (CloudWatch Logs' distribution
     * ByLogStream), by AWS name: compared as if the spec had said it.
     */
    readonly defaults?: Readonly<Record<string, DefaultValue>>;
    /**
     * A map field's items (IAM's inline policies: name → document): the set call takes the map's key
     * as `id` and its value as this member; the read lists the IDs and `get` reads each one's value.
     * A list field of strings is a list of IDs (IAM's attached policy ARNs): each is set and removed
     * as `id`, read from the listed items' `id` member.
     */
    readonly value?: string;
    /** The call reading one item's value by its ID (a map field's items: GetRolePolicy). */
    readonly get?: string;
    readonly list: string;
    readonly page?: { readonly input: string; readonly output: string; readonly more?: string };
  };
  /**
   * `changed`: one set call carrying only the fields that differ (with each field's `setAs`,
   * `change`, `with` and removal value; RDS's ModifyDBInstance), rather than the whole group (a
   * call that takes, and may require, every field of the group: `group`, the default).
   */
  readonly send?: "group" | "changed";
  /** Constant members of every set call (RDS's ApplyImmediately: true). */
  readonly input?: Readonly<Record<string, unknown>>;
  /**
   * Members the group's read call takes beside the object's address, from the object's read
   * answer: input member → answer member (IAM's GetPolicyVersion takes the VersionId GetPolicy
   * answers as DefaultVersionId).
   */
  readonly readInput?: Readonly<Record<string, string>>;
  /** Constant members of the group's read call (KMS's GetKeyPolicy: PolicyName "default"). */
  readonly readWith?: Readonly<Record<string, unknown>>;
  /**
   * The read answers one field at a time (EC2's DescribeVpcAttribute takes one `Attribute`): it is
   * sent once per field, with that field's members here, and the answers merged. By AWS name.
   */
  readonly readEach?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * Where the set call takes a field, where not under its own member, by AWS name: a dotted path
   * (EC2's ModifyVpcAttribute takes a flag as `EnableDnsSupport.Value`).
   */
  readonly setAt?: Readonly<Record<string, string>>;
  /**
   * The kind writes this group itself (its `writes` hook, by set call): the group's calls name
   * something other than the object (EC2's DisassociateVpcCidrBlock takes the ID of the CIDR
   * block's association, which only the object's read answers). Its read is the runtime's.
   */
  readonly byHook?: true;
  /**
   * Where the group's read answer holds a field, where not under the field's own member, by AWS
   * name: a dotted path (GetPolicyVersion's `PolicyVersion.Document` for PolicyDocument).
   */
  readonly readAt?: Readonly<Record<string, string>>;
  /**
   * Secrets (AWS names, of the declaration's `secrets`) the set call carries after creation: when
   * the Secret's value changed since it was applied, or when `runtime.secrets` says another
   * change needs it; the call is then sent even if no field differs.
   */
  readonly secrets?: readonly string[];
}

/** A variant of a kind (RuntimeDeclaration.variants): where it differs. */
export interface RuntimeVariant {
  /** Objects whose identifier ends so are of this variant (`--x-s3`). */
  readonly suffix: string;
  /** The field groups it has, by set call (its tags' group aside). */
  readonly groups: readonly string[];
  /**
   * A call listing such objects, page by page (`page`: the token the answer gives and the next
   * call takes): only the one whose identifier (`answerId`) is the resource's is kept; `region`,
   * its member naming where it lives.
   */
  readonly read: {
    readonly call: string;
    readonly output: string;
    readonly answerId: string;
    readonly region?: string;
    readonly page?: { readonly input: string; readonly output: string };
  };
  /** Its ARN: `arn:<partition>:<service>:<region>:<account>:<resource><name>`. */
  readonly arn: { readonly service: string; readonly resource: string };
  /** Its IAM actions' service prefix, where not the kind's (`s3express`). */
  readonly iamService?: string;
  /**
   * Its tags, by another service's calls on its ARN in its account (S3 Control's), made by a
   * second client the kind's client gives on first use: the calls, the ARN's, account's, tags'
   * and keys' members.
   */
  readonly tags: {
    readonly service: string;
    readonly read: string;
    readonly set: string;
    readonly remove: string;
    readonly resource: string;
    readonly account: string;
    readonly list: string;
    readonly keys: string;
  };
  /** What a read right after the create asks, by set call (RuntimeDeclaration.afterCreate). */
  readonly afterCreate?: { readonly read: readonly string[] };
}

/**
 * How the generic runtime (src/services/declared-kind/) reads, deletes and tags a kind that has
 * no hand-written module: the calls beyond the create call and the field groups'.
 */
export interface RuntimeDeclaration {
  /** How messages name the service and the object: "RDS", "DB subnet group". */
  readonly service: string;
  readonly noun: string;
  /**
   * The call that reads one object by its identifier, and the output member holding it (or a list
   * of objects, of which only the one whose identifier is the resource's is kept). Where the
   * identifier goes in the call's input is read from the model (src/codegen/object-address.ts);
   * `answerId` names the answered objects' identifier member where it is not the identifier's.
   */
  readonly read: {
    readonly call: string;
    /**
     * Absent: the call's whole answer is the object (S3's HeadBucket answers one bucket's region):
     * found when it answers, never a list to pick from.
     */
    readonly output?: string;
    readonly answerId?: string;
    /**
     * The input member taking the identifier where the model does not say by its name and shape
     * (CloudWatch Logs' `logGroupNamePrefix`): a string, or a list of them. The answer may then
     * list other objects: only the one whose identifier is the resource's is kept.
     */
    readonly by?: string;
    /**
     * The read call names no object (KMS's ListAliases): every object is listed, page by page,
     * until the resource's shows; only the one whose identifier is the resource's is kept.
     */
    readonly every?: true;
    /** The answer is paged: the token it gives and the next call takes, until the object shows. */
    readonly page?: { readonly input: string; readonly output: string };
    /** Input the read call takes beyond the object's address (SQS: `AttributeNames: ["All"]`). */
    readonly input?: Readonly<Record<string, unknown>>;
    /**
     * Spec fields (by AWS name) the answered object holds elsewhere than under their own member: a
     * path (`Endpoint.Port`; `[0]` the first item, `[]` every item of a list), `{present: m}` for
     * true while member `m` is there, `null` for a field never read back.
     */
    readonly members?: Readonly<Record<string, string | { readonly present: string } | null>>;
    /**
     * Values the answered object reports as pending in `member` (RDS's PendingModifiedValues) count
     * as its own: a change already asked for is not drift. `fields` by AWS name, as `member` names
     * them; `renames` where it names one otherwise.
     */
    readonly pending?: {
      readonly member: string;
      readonly fields: readonly string[];
      readonly renames?: Readonly<Record<string, string>>;
    };
    /**
     * The tags and the groups read by calls of their own are asked at once, not one after another
     * (they are independent: a read then costs one round trip after the object's, not one per
     * group; S3's bucket settings, DynamoDB's table settings).
     */
    readonly groupsAtOnce?: true;
    /**
     * Members of the answer beside `output` that are the object's too (Lambda's GetFunction answers
     * the function's tags and reserved concurrency beside its `Configuration`): merged into it.
     */
    readonly beside?: readonly string[];
  };
  /**
   * ARNs that name neither region nor account (S3's `arn:aws:s3:::<name>`): crossrole composes the
   * ARN from the name, and where the object lives is the kind's `region` hook's answer. `account`:
   * ARNs that name the account and no region (IAM's): composed, and the object is in no region.
   */
  readonly arnScope?: "global" | "regional" | "account";
  /**
   * The spec field (AWS name) whose value the ARN holds between `arnResource` and the name (IAM's
   * Path: `role/` + `team/` + name), its slashes at either end trimmed.
   */
  readonly arnPath?: string;
  /**
   * Members AWS answers URL-encoded (IAM's policy documents), in the read answer and in items'
   * values: decoded before they are compared or copied into the spec.
   */
  readonly urlEncoded?: readonly string[];
  /**
   * Policy documents (AWS names) whose principals let accounts in: a role's trust policy, a
   * resource policy. Principals in accounts the namespace is not granted are warned of, or refused
   * (ServiceModule.principalFields).
   */
  readonly principals?: readonly string[];
  /**
   * Groups (by set call) whose items must all be removed before AWS deletes the object (IAM refuses
   * to delete a role with policies): read, each removed by the group's remove call, then the delete.
   */
  readonly emptiedBeforeDelete?: readonly string[];
  /**
   * The ARN's service where not the kind's (a variant's: S3 Express's `s3express`); with arnScope
   * "regional" the ARN is composed in the client's region and account.
   */
  readonly arnService?: string;
  /** The IAM actions' service prefix where not the kind's (`s3express`). */
  readonly iamService?: string;
  /** The read answer's member naming where the object lives (a variant's listed `BucketRegion`). */
  readonly regionMember?: string;
  /**
   * What a read right after this reconcile's own create asks (a new object has nothing else yet):
   * the groups by set call whose values AWS decides on a new object (S3's default encryption), in
   * one round trip with the tags; the object's other groups are none, with the kind's
   * `knownAfterCreate` values. Absent: the whole read.
   */
  readonly afterCreate?: { readonly read: readonly string[] };
  /**
   * AWS applies each set call at once (S3): after an update, what AWS holds is what was sent, and
   * it is not read back.
   */
  readonly appliedAtOnce?: true;
  /**
   * Objects of the kind AWS serves otherwise, told by their identifier's suffix (S3's directory
   * buckets): their own read, the groups they have, their ARN and IAM actions, their tags by
   * another service's calls. Everything else is the kind's.
   */
  readonly variants?: Readonly<Record<string, RuntimeVariant>>;
  /** Create-call members left to the first update (S3's ACL: a create may answer for a bucket not ours). */
  readonly notInCreate?: readonly string[];
  /** The spec field (AWS name) a create's failure is about where AWS's words name none (S3: Bucket). */
  readonly createField?: string;
  /**
   * Terminal codes that mean "AWS refused the value" (the shared hint says to fix the field);
   * default: every terminal code. `[]`: the declaration's own hints say it.
   */
  readonly refusedValue?: readonly string[];
  /**
   * An object AWS addresses by a handle another call gives for its identifier (SQS: GetQueueUrl's
   * QueueUrl for a QueueName, in the caller's account only): every other call takes the handle.
   * The read answer is then the object's alone (no identifier to match), and the create is sent
   * only after the handle call found none (a create AWS answers for an existing object too, as
   * CreateQueue does, must never be taken for a new one).
   */
  readonly locate?: { readonly call: string; readonly handle: string };
  /**
   * An object AWS addresses by its ARN, which crossrole composes from the identifier and the
   * account and region the client acts in (SNS: `arn:aws:sns:<region>:<account>:<name>`): every
   * call but the create takes it, each in the one of these members its input has (`TopicArn`,
   * `ResourceArn`). A read then only ever looks in the client's own account, its answer is the
   * object's alone, and the create is sent only after that read found none (CreateTopic answers
   * for an existing topic too, and must never be taken for a new one).
   */
  readonly byArn?: readonly string[];
  /**
   * The create answers for an existing object too (SNS's CreateTopic): with `byArn`, the create is
   * sent only after a read by the ARN found none. Without it, the create refuses an existing
   * object (`alreadyExists`), and the read before the create is the reconcile's own.
   */
  readonly createAnswersExisting?: true;
  /**
   * The object is named by an ID AWS gives it at creation (a KMS key's), not by a spec field: the
   * create answers it at `answer` (a dotted path), ACK's status records it in `status`. Status is
   * the tenant's to write, so the reconciler takes that ID only as a hint (it must match `pattern`,
   * and the object must carry the resource's ownership tags); otherwise, where a create may have
   * happened, it finds the object by those tags through the kind's `findTagged` hook (EC2's tag
   * filter; KMS, which has none, reads every key's tags).
   */
  readonly assigned?: {
    readonly answer: string;
    readonly status: string;
    readonly pattern: string;
  };
  /**
   * A member of the read answer whose presence means the object is being deleted and is none
   * (Secrets Manager's DeletedDate: a secret scheduled for deletion is answered until it is gone).
   */
  readonly goneWhen?: string;
  /**
   * The ARN cannot be composed (Secrets Manager's random suffix): ACK's status holds the ARN AWS
   * answered, and where nothing was answered yet, the composed one without the suffix.
   */
  readonly answeredArn?: true;
  /** Status fields holding the handle and the ARN (ACK's Queue: `queueURL`, `queueARN`). */
  readonly status?: { readonly handle?: string; readonly arn?: string };
  /**
   * AWS matches identifiers ignoring case (`insensitive`), or also stores them lower-cased
   * (`lower`, RDS's instances): every call then names the object in lower case, while the spec
   * keeps its spelling.
   */
  readonly identifierCase?: "insensitive" | "lower";
  /**
   * A long-running object's states (an instance creating, modifying): the member of the read
   * answer holding its state, the states in which it may be written to, and those AWS does not
   * leave on its own. In any other state nothing is written; the resource says which state and
   * is looked at again after `pollSeconds` (10), never holding a worker.
   */
  readonly states?: {
    /** Several members: the first holding a state that holds writes says it (Lambda's State, LastUpdateStatus). */
    readonly member: string | readonly string[];
    readonly stuck?: readonly string[];
    readonly pollSeconds?: number;
    /** States it may be written in beyond the ready ones, not waited for (RDS's storage-full). */
    readonly alsoWritable?: readonly string[];
    /** Words for the user in a state, after "on its own" (RDS's stopped: "start it in AWS..."). */
    readonly advice?: Readonly<Record<string, string>>;
    /** States in which the object is already going: a delete refused for its state then is done. */
    readonly deleting?: readonly string[];
    /** Codes the delete answers while the object is busy: it is read again to see whether it is going. */
    readonly busyCodes?: readonly string[];
    /**
     * Lists in the read answer whose items have a state of their own that holds writes too
     * (DynamoDB's indexes and replicas): the list, the item's state and name members, and how the
     * message names an item ("index", "replica in").
     */
    readonly parts?: readonly {
      readonly list: string;
      readonly member: string;
      readonly name: string;
      readonly noun: string;
    }[];
  } & (
    | { readonly ready: readonly string[]; readonly busy?: never }
    /** Where AWS's list of states is open (DynamoDB adds some): only these hold writes. */
    | { readonly busy: readonly string[]; readonly ready?: never }
  );
  /**
   * Calls whose answer holds the object as the read answers it, by member (DynamoDB's
   * CreateTable and UpdateTable: `TableDescription`; `""`: the whole answer, as Lambda's
   * UpdateFunctionConfiguration answers the function): the create's status comes from it, and an
   * update stops after such a call that leaves the object busy (`states`).
   */
  readonly objectIn?: Readonly<Record<string, string>>;
  /**
   * Members in which calls that take no identifier take the object's ARN, as the read answered it
   * (DynamoDB's resource policy calls: `ResourceArn`).
   */
  readonly arnInput?: readonly string[];
  /**
   * The delete refused because deletion protection is on: the code, words of its message (a
   * case-insensitive pattern) and the field (AWS name) that turns it off. Retryable: the message
   * says how to delete it (turn the field off) or keep it (deletion-policy retain).
   */
  readonly deletionProtected?: {
    readonly code: string | readonly string[];
    readonly words: string;
    readonly field: string;
    /** What "to keep the ... instead" calls the object, where not its noun ("instance"). */
    readonly keep?: string;
  };
  /**
   * For these codes, where the call named no field: the first pattern (case-insensitive) that
   * AWS's message matches names the field, by AWS name (DynamoDB's ValidationException words).
   */
  readonly fieldPatterns?: {
    readonly codes: readonly string[];
    readonly patterns: readonly (readonly [pattern: string, field: string])[];
  };
  readonly delete: string;
  /** The member of the read answer holding the object's ARN (absent with arnScope "global": composed). */
  readonly arn?: string;
  /** The ARN's resource part before the name (RDS's `subgrp:`). */
  readonly arnResource: string;
  /**
   * Error codes (without AWS's "Fault" suffix) that say: no such object; it already exists. A code
   * AWS answers for other errors too counts only with these words in its message (SNS's
   * InvalidParameter "... already exists ...").
   */
  readonly notFound: readonly string[];
  readonly alreadyExists: readonly (string | { readonly code: string; readonly message: string })[];
  /**
   * The tag calls' members (the calls are the tags group's): the ARN's member, the keys' member
   * of the untag call, the tags' member of the read answer (a list or a map, as the create's).
   * Where the model makes the object's member a list (EC2's `Resources`), the object goes alone in
   * it; where it makes the keys' member a list of tags (EC2's DeleteTags), each key is one.
   * Absent: AWS cannot tag the object (a KMS alias); the kind has no tags group, and whose an
   * object is, the controller's own records say (src/controller/records/owned-objects.ts).
   */
  readonly tags?: {
    readonly resource: string;
    /** The untag call's keys member (absent with `replace`). */
    readonly keys?: string;
    /**
     * The tag calls name the object as its other calls do (S3's `Bucket`; EC2's ID in
     * `Resources`), not by its ARN.
     */
    readonly by?: "identifier";
    /**
     * The set call replaces the whole tag set (S3's PutBucketTagging), and no tags is the remove
     * call with the address alone; a claim sends the tags it keeps with the ownership tags.
     */
    readonly replace?: true;
    /** Where the create call takes the tags, as a dotted path (S3: `CreateBucketConfiguration.Tags`). */
    readonly inCreate?: string;
    /**
     * The create takes the tags in a tag specification of this resource type (EC2's
     * `TagSpecifications: [{ResourceType: "vpc", Tags}]`): they are on the object from its first moment.
     */
    readonly specification?: string;
    /**
     * The tag calls are another service's (a variant's: S3 Control), made by the second client
     * the kind's client gives (`DeclaredClient.more`), naming the account in `account`.
     */
    readonly client?: { readonly service: string; readonly account: string };
    readonly list: string;
    /** The tag call's member for the tags, where it is not the create call's (SQS: `Tags`, `tags`). */
    readonly set?: string;
    /** The read answer's member holding the tags (RDS's TagList): no call of their own to read them. */
    readonly inAnswer?: string;
  };
  /**
   * Secret fields (the declaration's `secrets`, by AWS name) as messages name what they hold
   * ("the master password"); the create call carries each, and the groups' `secrets` say when a
   * set call carries it again. `alsoWhen`: a change of another field that needs it too (RDS takes
   * the password back from Secrets Manager only with one).
   */
  readonly secrets?: Readonly<
    Record<
      string,
      {
        readonly noun: string;
        readonly alsoWhen?: { readonly field: string; readonly from: unknown; readonly to: unknown };
      }
    >
  >;
  /**
   * Input members whose values must never surface (RDS's TdeCredentialPassword): an error of a call
   * carrying one, as of one carrying a secret, holds none of AWS's message.
   */
  readonly sensitive?: readonly string[];
  /** The field groups' set calls in the order an update sends them, where not the groups' (RDS: tags first). */
  readonly updateOrder?: readonly string[];
  /**
   * Codes whose message names the refused field by its AWS name, where the call applied several
   * (SQS's InvalidAttributeValue "Invalid value for the parameter VisibilityTimeout.").
   */
  readonly fieldNamedIn?: readonly string[];
  /** Error codes that are about one spec field whatever call failed, by the field's AWS name. */
  readonly errorFields?: Readonly<Record<string, string>>;
  /**
   * Codes AWS also answers for the same error, by the name the declaration uses (SQS's legacy
   * query codes: `AWS.SimpleQueueService.NonExistentQueue` is `QueueDoesNotExist`).
   */
  readonly codeAliases?: Readonly<Record<string, string>>;
  /** The service's own codes for "slow down" and "not allowed", beyond the shared ones. */
  readonly throttled?: readonly string[];
  readonly accessDenied?: readonly string[];
  /** The IAM action of an operation where it is not `<service>:<Operation>` alone. */
  readonly iamActions?: Readonly<Record<string, string>>;
  /**
   * What the service's own codes mean for the user, after AWS's message: " (...)", with `{name}`
   * the object's name, `{field}` the spec field and `{action}` the failing call's IAM action. A record words it by the failing spec field,
   * else by the failing operation, `""` for any other.
   */
  readonly hints?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
}

export interface KindDeclaration {
  /** The model's service name (botocore's directory: s3, sqs, sns, dynamodb, rds). */
  readonly service: string;
  readonly kind: string;
  readonly spec: readonly SpecSource[];
  /** The AWS name of the spec field that names the AWS object (`QueueName`, `Bucket`). */
  readonly identifier: string;
  /** Fields AWS fixes at creation, by AWS name: the CRD refuses a change (CEL `self == oldSelf`). */
  readonly immutable?: readonly string[];
  /**
   * Fields whose absence in the spec means "take AWS's value", by AWS name, in the order drift
   * applies them: the reconciler copies AWS's value into the spec (ACK's late initialisation).
   */
  readonly lateInitialized?: readonly string[];
  /** AWS error codes only a spec change can fix: ACK.Terminal, never retried. */
  readonly terminalCodes: readonly string[];
  /**
   * Spec name by AWS path from the spec's root (`Bucket`, `Logging.LoggingEnabled.TargetGrants.Grantee.Type`;
   * lists are transparent), where ACK departs from its naming convention.
   */
  readonly renames?: Readonly<Record<string, string>>;
  /** References (ACK's `*Ref`), by the AWS path of the plain field they stand beside. */
  readonly references?: readonly ReferenceDeclaration[];
  /**
   * What the description adds to AWS's words, by AWS path: chiefly what removing the field from
   * the spec does in AWS, where that is not "removed" (kept, reset to a default, immutable).
   */
  readonly notes?: Readonly<Record<string, string>>;
  /**
   * Tag key prefixes the service reserves besides those every kind refuses (`aws:`, ACK's and
   * crossrole's: src/api/reserved-tag-keys.ts), lower case, with the service's name for the
   * message: RDS's `{ "rds:": "RDS" }`. The generated tags field refuses them all.
   */
  readonly reservedTagPrefixes?: Readonly<Record<string, string>>;
  /**
   * List fields AWS reports only some items of, by AWS name, with the items' key member
   * (DynamoDB reports only the key attributes' definitions): adoption keeps the spec's others.
   */
  readonly partlyReported?: Readonly<Record<string, string>>;
  /** AWS paths of fields whose value is a Secret key (ACK's SecretKeyReference), never inline. */
  readonly secrets?: readonly string[];
  /** The call that creates the AWS object (it takes the fields its input has). */
  readonly create: string;
  /** After creation, which call changes (and reads back) each group of fields, in the order applied. */
  readonly groups: readonly FieldGroup[];
  /**
   * Spec fields neither immutable nor in a group, by AWS name, with the reason they are not
   * compared (a secret applied on its own, a field another one's comparison covers).
   */
  readonly notCompared?: Readonly<Record<string, string>>;
  /** Status fields generated from the model, beside the hand-written ones. */
  readonly status?: StatusSource;
  /** For a kind the generic runtime serves: its read, delete and tag calls. */
  readonly runtime?: RuntimeDeclaration;
}
