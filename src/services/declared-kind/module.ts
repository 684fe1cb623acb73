// A kind served from its declaration alone (CONTRIBUTING.md, "How a kind is made"): the ServiceModule the reconciler drives,
// built from the declaration (its calls: create, the field groups' set and read calls, read,
// delete, tags), the generated module (schemas, codecs, the calls and drift table) and the SDK
// package whose `<Operation>Command` classes make the calls. What a kind adds is its genuine
// quirks, as hooks: spec fields its read answer holds in another shape, compare hooks for the
// fields it declares `custom`. Every promise of the reconciler holds as for the hand-written
// modules: ownership tags in the create call, nothing written to an object not read first.
import type { z } from "zod";
import type { ResourceKind } from "../../api/kinds.ts";
import { resourceSchemas, resourceSpecSchema, resourceStatusSchema } from "../../api/resource.ts";
import { immutable } from "../../api/rules.ts";
import type { KindDeclaration, RuntimeDeclaration } from "../../codegen/declaration.ts";
import type { DeclaredFieldGroups } from "../../codegen/drift-rules.ts";
import type { Address, ResolvedRuntime } from "../../codegen/object-address.ts";
import type { SpecTagField } from "../../codegen/spec-tags.ts";
import type { ClientFactory } from "../../credentials/client-pool.ts";
import { parseRegionalArn, regionalArn } from "../arn.ts";
import type { CallContext, SendOptions } from "../call-context.ts";
import { attributeWhenAbsent, declaredDrift, type EqualHook } from "../declared-drift.ts";
import { lateInitializeFields } from "../field-drift.ts";
import { type ReferenceField, refusingUnservedReferences } from "../references.ts";
import { serviceCalls } from "../service-calls.ts";
import {
  parseSpecWith,
  parseStatusWith,
  type SecretField,
  type SecretValues,
  type ServiceModule,
} from "../service-module.ts";
import {
  accountClient,
  adoptedSpec,
  errorReporting,
  pathsOf,
  regionalClient,
} from "../service-module-parts.ts";
import { awsMembers, type FieldCodecs, fromAws } from "../shape-codec.ts";
import { stringBoolean } from "../string-boolean.ts";
import { applyTagChanges, claimTags } from "../tag-changes.ts";
import { valueAt } from "./answer-paths.ts";
import { changedFieldsInput, type RemovedHook } from "./changed-input.ts";
import { type CallFailure, declaredKindErrors } from "./errors.ts";
import { heldBy, waitFor } from "./states.ts";
import { tagShapeOf } from "./tag-shape.ts";

/** What the generated module of a kind gives the runtime (src/services/<service>/generated/). */
export interface GeneratedKind {
  readonly fieldSchemas: Readonly<Record<string, z.ZodType>>;
  readonly statusSchemas: z.ZodRawShape;
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
   * Spec fields the read answer holds in another shape (a subnet group's subnets as subnetIDs); a
   * field it gives as undefined is none.
   */
  readonly fieldsFromAnswer?: (answer: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /**
   * A group read by a call of its own, by that call, where its answer holds the group's fields in
   * another shape (DynamoDB's DescribeTimeToLive): the group's fields from the answer (absent: none).
   */
  readonly groupFieldsFromAnswer?: Readonly<Record<string, (answer: Fields) => Fields>>;
  /** The create call's input as AWS takes it, from the runtime's (codecs, identifier, tags) and the spec. */
  readonly createInput?: (input: Fields, spec: Fields) => Fields;
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
  readonly hooks?: DeclaredKindHooks;
  /**
   * The kind's own spec and status schemas, where it has value rules beyond the generated ones
   * (built on declaredKindSchemas); default: declaredKindSchemas.
   */
  readonly schemas?: { readonly spec: z.ZodType; readonly status: z.ZodType };
}

type Fields = Record<string, unknown>;

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
}

/** The client the runtime's calls take; `account` for a kind addressed by ARN (runtime.byArn). */
export interface DeclaredClient<Sdk> {
  readonly sdk: Sdk;
  readonly region: string;
  readonly account?: string;
}

interface SdkClient {
  send(command: unknown, options?: SendOptions): Promise<unknown>;
  readonly config: { region(): Promise<string> };
  destroy(): void;
}

/**
 * The kind's object schema and CRD source, from the generated schemas: the declared immutable
 * fields refuse a change at admission (CEL `self == oldSelf`), references to unserved kinds are
 * refused with the plain field to set.
 */
export function declaredKindSchemas(kind: ResourceKind, generated: GeneratedKind) {
  const fields: Record<string, z.ZodType> = { ...(generated.fieldSchemas as Record<string, z.ZodType>) };
  for (const field of generated.declared.immutable) {
    const schema = fields[field];
    if (schema === undefined) throw new Error(`${kind.kind}: immutable field ${field} is no spec field`);
    fields[field] = immutable(
      schema,
      `${field} is immutable: AWS sets it at creation; to change it, create a new ${kind.kind}`,
    );
  }
  const spec = refusingUnservedReferences(resourceSpecSchema(fields), generated.references);
  const status = resourceStatusSchema.extend(generated.statusSchemas);
  return { spec, status, ...resourceSchemas(kind, spec, status) };
}

export function declaredKindModule<Sdk extends SdkClient>(
  source: DeclaredKindSource<Sdk>,
): ServiceModule<Fields, DeclaredObserved, DeclaredClient<Sdk>> {
  const { kind, declaration, generated, hooks } = source;
  const runtime = declaration.runtime;
  const groups = generated.fieldGroups;
  const idField = generated.declared.identifier;
  const idAws = codecOf(generated.codecs, idField)[0];
  const tagsGroup = groups.groups.find((g) => g.fields.some((f) => f.form === "tags"));
  const tagsField = tagsGroup?.fields.find((f) => f.form === "tags")?.field;
  if (tagsGroup === undefined || tagsField === undefined || tagsGroup.remove === undefined) {
    throw new Error(`${kind.kind}: the generic runtime needs a tags group with a remove call`);
  }
  const [tagsAws, tagsCodec] = codecOf(generated.codecs, tagsField);
  const tagShape = tagShapeOf(tagsCodec);
  const schemas = source.schemas ?? declaredKindSchemas(kind, generated);
  const attributes = generated.attributes;
  const isAttribute = (field: string) => attributes !== undefined && field in attributes.fields;
  const formOf = new Map(groups.groups.flatMap((g) => g.fields.map((f) => [f.field, f] as const)));

  // ---- calls and their errors ----
  const operations = [
    ...(generated.runtime.locate === undefined ? [] : [generated.runtime.locate.call]),
    groups.create,
    runtime.read.call,
    runtime.delete,
    ...groups.groups.flatMap((g) => [g.set, g.read, ...(g.remove === undefined ? [] : [g.remove])]),
  ];
  const errors = declaredKindErrors(kind.kind, kind.service, declaration, {
    codecs: generated.codecs,
    awsNames: generated.awsNames,
    attributes: attributes?.fields,
    operations,
  });
  const { code, isAlreadyExists, classify, ErrorClass } = errors;
  const codes = (list: readonly string[]) => new Set(list);
  const calls = serviceCalls<"name", CallFailure>({
    service: kind.service,
    object: "name",
    isGone: errors.isNotFound,
    classify,
  });
  const command = (operation: string, input: unknown): unknown => {
    const Command = source.sdk[`${operation}Command`] as (new (input: unknown) => unknown) | undefined;
    if (Command === undefined) throw new Error(`the SDK has no ${operation}Command`);
    return new Command(input);
  };
  /** One call: `input` sent as `operation`, its answer as plain data. */
  const run =
    (client: DeclaredClient<Sdk>, operation: string, input: unknown) =>
    async (o: SendOptions): Promise<Fields> =>
      ((await client.sdk.send(command(operation, input), o)) ?? {}) as Fields;

  // Every call names the object as the model says that call takes it (never a member the call
  // lacks, which the SDK would drop, and AWS answer for every object).
  const addressed = generated.runtime;
  /** What AWS calls the object: the spec's identifier, lower-cased where AWS stores it so (RDS). */
  const nameOf = (spec: Fields): string => {
    const name = String(spec[idField] ?? "");
    return addressed.lowercase === true ? name.toLowerCase() : name;
  };
  const naming = (address: Address, name: string): Fields => ({
    [address.member]: address.form === "list" ? [name] : name,
  });
  /** A group call's naming of the object: by its address (identifier, handle or ARN), or its ARN as read. */
  const callNaming = (call: string, name: string, arn: string): Fields => {
    const address = addressed.calls[call];
    if (address === undefined) throw new Error(`${kind.kind}: no address for ${call}`);
    return address.form === "arn" ? { [address.member]: arn } : naming(address, name);
  };
  const sameName = addressed.caseInsensitive
    ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
    : (a: string, b: string) => a === b;
  /**
   * The one object of `answer` whose identifier is `name`: a read answer may list others (a call
   * that filters loosely, or not at all), and acting on one of them would be acting on another
   * object. None: not found. More than one: nothing is done, and the reconcile says why.
   */
  const theObject = (answer: Fields | undefined, name: string): Fields | undefined => {
    const answered = answer?.[addressed.read.answers];
    const items = addressed.read.list
      ? ((answered as Fields[] | undefined) ?? [])
      : answered === undefined
        ? []
        : [answered as Fields];
    const named = items.filter((item) => {
      const id = item[addressed.read.id];
      return typeof id === "string" && sameName(id, name);
    });
    if (named.length > 1) {
      throw classify(
        Object.assign(
          new Error(
            `${addressed.read.call} answered ${named.length} objects named "${name}"; crossrole acts on exactly one`,
          ),
          { name: "AmbiguousAnswer" },
        ),
        { operation: addressed.read.call, name },
      );
    }
    return named[0];
  };
  const located = addressed.locate;
  const byArn = addressed.byArn === true;
  /** Whether the read names the object by its identifier (so its answer may list others). */
  const byIdentifier = located === undefined && !byArn;
  /** The object's ARN in the client's account and region, for a kind AWS addresses by it. */
  const composedArn = (client: DeclaredClient<Sdk>, name: string): string => {
    if (client.account === undefined)
      throw new Error(`${kind.kind}: addressed by ARN, the client needs its account`);
    return regionalArn(kind.service, client.region, client.account, `${runtime.arnResource}${name}`);
  };
  const readCall = (client: DeclaredClient<Sdk>, name: string, address: string, ctx: CallContext) =>
    calls.sendUnlessGone(
      ctx,
      addressed.read.call,
      name,
      run(client, addressed.read.call, { ...addressed.readInput, ...naming(addressed.read.by, address) }),
    );
  /** What the tag calls name the object by: its handle where they take it (SQS), else its ARN. */
  const tagTarget = (observed: Pick<DeclaredObserved, "arn" | "handle">) =>
    located !== undefined && runtime.tags.resource === located.handle
      ? (observed.handle ?? "")
      : observed.arn;
  const tagWrites = (client: DeclaredClient<Sdk>, name: string, target: string, ctx: CallContext) => ({
    tag: (tags: Record<string, string>) =>
      calls.send(
        ctx,
        tagsGroup.set,
        name,
        run(client, tagsGroup.set, {
          [runtime.tags.resource]: target,
          [runtime.tags.set ?? tagsAws]: tagShape.toAws(tags),
        }),
        { field: `spec.${tagsField}` },
      ),
    untag: (keys: string[]) =>
      calls.send(
        ctx,
        tagsGroup.remove ?? "",
        name,
        run(client, tagsGroup.remove ?? "", {
          [runtime.tags.resource]: target,
          [runtime.tags.keys]: keys,
        }),
        { field: `spec.${tagsField}` },
      ),
  });
  /**
   * The handle a create just answered, per client (so per account and region) and name, taken by
   * the read that follows: it need not ask for what AWS has just said. Taken once; a later read
   * asks again (the object may be deleted out of band).
   */
  const justMade = new WeakMap<object, Map<string, string>>();
  /** What calls name the object by: its identifier, or (runtime.locate) the handle AWS gives for it; undefined: none. */
  const addressOf = async (
    client: DeclaredClient<Sdk>,
    name: string,
    ctx: CallContext,
    fresh = false,
  ): Promise<string | undefined> => {
    if (byArn) return composedArn(client, name);
    if (located === undefined) return name;
    const memo = justMade.get(client.sdk);
    const made = fresh ? undefined : memo?.get(name);
    if (made !== undefined) {
      memo?.delete(name);
      return made;
    }
    const answer = await calls.sendUnlessGone(
      ctx,
      located.call,
      name,
      run(client, located.call, naming(located.by, name)),
    );
    const handle = answer?.[located.handle];
    return typeof handle === "string" && handle !== "" ? handle : undefined;
  };
  /** An attribute's value as the map holds it ("" and absent are none); booleans as ACK's "true"/"false". */
  const attributeFromAws = (field: string, value: unknown): unknown => {
    if (value === undefined || value === "") return undefined;
    return formOf.get(field)?.form === "boolean" ? stringBoolean(String(value)) : value;
  };
  const diff = declaredDrift<Fields, DeclaredFieldGroups>(groups, (hooks?.equal ?? {}) as never);
  /** Every tag, page by page where the tag read is paginated; `gone`: the object went meanwhile. */
  const readTags = async (
    client: DeclaredClient<Sdk>,
    name: string,
    target: string,
    ctx: CallContext,
  ): Promise<unknown> => {
    const page = addressed.tagsPage;
    let tags: unknown;
    let token: unknown;
    do {
      const answer = await calls.sendUnlessGone(
        ctx,
        tagsGroup.read,
        name,
        run(client, tagsGroup.read, {
          [runtime.tags.resource]: target,
          ...(page === undefined || token === undefined ? {} : { [page.input]: token }),
        }),
        { field: `spec.${tagsField}` },
      );
      if (answer === undefined) return gone;
      const more = answer[runtime.tags.list];
      tags = Array.isArray(more)
        ? [...((tags as unknown[] | undefined) ?? []), ...more]
        : more === undefined
          ? tags
          : { ...(tags as Fields | undefined), ...(more as Fields) };
      token = page === undefined ? undefined : answer[page.output];
    } while (token !== undefined && token !== "");
    return tags;
  };
  /** ACK's status fields from what AWS answered; times in whole seconds (metav1.Time, as ACK). */
  const statusOf = (item: Fields): Fields => {
    const status: Fields = {};
    for (const [field, [member, codec]] of Object.entries(generated.statusCodecs)) {
      // In an attribute map, "" is no value.
      if (item[member] === undefined || (attributes !== undefined && item[member] === "")) continue;
      status[field] = wholeSeconds(fromAws(codec, item[member]));
    }
    return status;
  };
  /** A long-running object not in a state it may be written in (runtime.states): why, in AWS's words. */
  const busyIn = (observed: DeclaredObserved) => {
    const states = addressed.states;
    if (states === undefined || observed.busy === undefined) return undefined;
    return waitFor(states, `${runtime.noun} ${nameOf(observed.fields)}`, runtime.service, observed.busy);
  };
  /**
   * Whether a create AWS would answer for an existing object too (CreateQueue, CreateTopic) must
   * look first: where the object has a handle or an ARN crossrole can ask by, it asks.
   */
  const existsAlready = async (client: DeclaredClient<Sdk>, name: string, ctx: CallContext) => {
    if (located !== undefined) return (await addressOf(client, name, ctx, true)) !== undefined;
    if (byArn) return (await readCall(client, name, composedArn(client, name), ctx)) !== undefined;
    return false;
  };
  /** A group as declared, by its set call. */
  const declared = (set: string) => declaration.groups.find((g) => g.set === set);
  /** A group's own codes for "the object has none of these fields" (its read and remove calls). */
  const groupNotFound = (set: string): ReadonlySet<string> => codes(declared(set)?.notFound ?? []);
  /** Lists AWS reports only part of, by spec field, with their items' key in spec form. */
  const partlyReported = Object.entries(declaration.partlyReported ?? {}).map(([aws, key]) => {
    const [field, [, codec]] = Object.entries(generated.codecs).find(([, [member]]) => member === aws) ?? [
      "",
      ["", {}],
    ];
    const itemKey = Object.entries(codec.list?.object ?? {}).find(([, [member]]) => member === key)?.[0];
    if (field === "" || itemKey === undefined)
      throw new Error(`${kind.kind}: partlyReported ${aws}.${key} is no list field with that key`);
    return [field, itemKey] as const;
  });
  const specOfAws = (aws: string): string => {
    const found = Object.entries(generated.codecs).find(([, [member]]) => member === aws)?.[0];
    if (found === undefined) throw new Error(`${kind.kind}: ${aws} is no spec field's member`);
    return found;
  };
  /** Spec fields the read answer holds under other members (runtime.read.members), by member. */
  const elsewhere = new Set(Object.keys(runtime.read.members ?? {}));
  const readElsewhere = Object.entries(runtime.read.members ?? {}).flatMap(([aws, at]) => {
    if (at === null) return [];
    const field = specOfAws(aws);
    return [[field, codecOf(generated.codecs, field)[1], at] as const];
  });
  /** Pending values (runtime.read.pending): spec field by the pending member's name. */
  const pendingFields = (() => {
    const pending = runtime.read.pending;
    if (pending === undefined) return [];
    return [
      ...pending.fields.map((aws) => [aws, specOfAws(aws)] as const),
      ...Object.entries(pending.renames ?? {}).map(([member, aws]) => [member, specOfAws(aws)] as const),
    ];
  })();
  /** A spec field by its AWS name, secrets (which have no codec) included. */
  const specOfName = (aws: string): string =>
    Object.entries(generated.awsNames ?? {}).find(([, name]) => name === aws)?.[0] ?? specOfAws(aws);
  /** The declared secrets (runtime.secrets): their member, spec field and how messages name them. */
  const secretInputs = Object.entries(runtime.secrets ?? {}).map(([aws, s]) => ({
    ...s,
    aws,
    field: specOfName(aws),
  }));
  const secretFieldSet = new Set(secretInputs.map((s) => s.field));
  /** The spec paths whose secret (or sensitive) values an input carries: AWS's answer is then withheld. */
  const carriedIn = (input: Fields): { secretFields?: string[] } => {
    const paths = [...secretInputs.map((s) => s.aws), ...(runtime.sensitive ?? [])]
      .filter((aws) => input[aws] !== undefined)
      .map((aws) => `spec.${specOfName(aws)}`);
    return paths.length === 0 ? {} : { secretFields: paths };
  };
  /** A secret's value as the reconciler read it from its Secret; a call needing one it lacks waits for it. */
  const secretValue = (
    secret: (typeof secretInputs)[number],
    values: SecretValues,
    operation: string,
    name: string,
  ): string => {
    const path = `spec.${secret.field}`;
    const value = values.values.get(path);
    if (value !== undefined) return value;
    throw new ErrorClass({
      disposition: "retryable",
      code: "SecretUnavailable",
      operation,
      object: name,
      field: path,
      message: `${path}: ${operation} on ${runtime.noun} "${name}" needs ${secret.noun}, and the value of the Secret key ${path} names was not available; retrying`,
    });
  };
  /** Read calls of their own, with the fields each reads back and the codes that mean "none". */
  const groupReads = new Map<string, { fields: string[]; notFound: Set<string>; always: boolean }>();
  const lateInitialized = new Set(generated.declared.lateInitialized);
  for (const g of groups.groups) {
    if (g === tagsGroup || g.read === addressed.read.call) continue;
    const entry = groupReads.get(g.read) ?? { fields: [], notFound: new Set<string>(), always: false };
    entry.fields.push(...g.fields.map((f) => f.field));
    // Fields AWS keeps while the spec leaves them out (SNS's data protection policy) need no read then.
    entry.always ||= g.fields.some((f) => f.absent !== "kept" || lateInitialized.has(f.field));
    for (const c of groupNotFound(g.set)) entry.notFound.add(c);
    groupReads.set(g.read, entry);
  }

  return {
    kind,
    parseSpec: parseSpecWith(schemas.spec as unknown as z.ZodType<Fields>),
    parseStatus: parseStatusWith(schemas.status),
    client: byArn ? accountClient(source.clientFactory, "sdk") : regionalClient(source.clientFactory, "sdk"),
    identifier: nameOf,
    identifierField: `spec.${idField}`,
    ...(generated.declared.specTags === undefined ? {} : { specTags: generated.declared.specTags }),
    references: generated.references,
    ...(hooks?.adoptionSeed === undefined ? {} : { adoptionSeed: hooks.adoptionSeed }),
    ...(secretInputs.length === 0
      ? {}
      : {
          secretFields: (spec: Fields): SecretField[] =>
            secretInputs.flatMap((s) => {
              const ref = spec[s.field] as { name: string; key: string; namespace?: string } | undefined;
              if (ref === undefined) return [];
              const { name, key, namespace } = ref;
              return [
                {
                  path: `spec.${s.field}`,
                  ref: { name, key, ...(namespace === undefined ? {} : { namespace }) },
                },
              ];
            }),
        }),

    async read(client, spec, ctx) {
      const name = nameOf(spec);
      const address = await addressOf(client, name, ctx);
      if (address === undefined) return { found: false };
      const answer = await readCall(client, name, address, ctx);
      // Read by its handle or ARN, the answer is the object's alone; read by name, it may list others.
      const item = byIdentifier
        ? theObject(answer, name)
        : (answer?.[addressed.read.answers] as Fields | undefined);
      if (item === undefined) return { found: false };
      const arn = String(item[runtime.arn] ?? "");
      const handle = located === undefined ? {} : { handle: address };
      // Tags in the read answer (RDS's TagList), else by a call of their own; no ARN answered (an
      // emulator's answer), no tags to read.
      const target = tagTarget({ arn, ...handle });
      const inAnswer = runtime.tags.inAnswer;
      const awsTags =
        inAnswer !== undefined
          ? item[inAnswer]
          : target === ""
            ? undefined
            : await readTags(client, name, target, ctx);
      if (awsTags === gone) return { found: false };
      const fields: Fields = {};
      for (const [field, [member, codec]] of Object.entries(generated.codecs)) {
        if (field === tagsField || elsewhere.has(member) || item[member] === undefined) continue;
        fields[field] = fromAws(codec, item[member]);
      }
      for (const [field, codec, at] of readElsewhere) {
        const value =
          typeof at === "string" ? valueAt(item, at) : item[at.present] == null ? undefined : true;
        if (value !== undefined) fields[field] = fromAws(codec, value);
      }
      for (const [field, attribute] of Object.entries(attributes?.fields ?? {})) {
        const value = attributeFromAws(field, item[attribute]);
        if (value !== undefined) fields[field] = value;
      }
      withFields(fields, hooks?.fieldsFromAnswer?.(item) ?? {});
      // A change AWS has been asked for and not applied yet is not drift (RDS's pending values).
      const pending = runtime.read.pending;
      const pendingItem = pending === undefined ? undefined : (item[pending.member] as Fields | undefined);
      for (const [member, field] of pendingFields) {
        const value = pendingItem?.[member];
        if (value !== undefined && value !== null)
          fields[field] = fromAws(codecOf(generated.codecs, field)[1], value);
      }
      // The object found is the one named: its identifier as the spec spells it (RDS answers lower case).
      fields[idField] = spec[idField] ?? name;
      // Groups read by a call of their own (a repository's lifecycle policy): each read once.
      for (const [call, own] of groupReads) {
        if (!own.always && own.fields.every((f) => spec[f] === undefined)) continue;
        let objectGone = false;
        const answer = await calls.sendUnless(
          (err) => {
            if (own.notFound.has(code(err))) return true;
            objectGone = errors.isNotFound(err);
            return objectGone;
          },
          ctx,
          call,
          name,
          run(client, call, callNaming(call, address, arn)),
          { field: own.fields.map((f) => `spec.${f}`).join(", ") },
        );
        // The object went between the calls.
        if (objectGone) return { found: false };
        const fromHook = hooks?.groupFieldsFromAnswer?.[call];
        if (fromHook !== undefined) {
          for (const field of own.fields) delete fields[field];
          withFields(fields, answer === undefined ? {} : fromHook(answer));
          continue;
        }
        for (const field of own.fields) {
          const [member, codec] = codecOf(generated.codecs, field);
          const value = answer?.[member];
          if (value === undefined || value === "") delete fields[field];
          else fields[field] = fromAws(codec, value);
        }
      }
      const tagsInSpecForm = tagShape.specFromAws(awsTags);
      if (tagsInSpecForm !== undefined) fields[tagsField] = tagsInSpecForm;
      const status = statusOf(item);
      const busy = addressed.states === undefined ? undefined : heldBy(addressed.states, item);
      return {
        found: true,
        observed: {
          fields: hooks?.observedFields?.(fields) ?? fields,
          tags: tagShape.mapFromAws(awsTags),
          status,
          arn,
          ...handle,
          ...(busy === undefined ? {} : { busy }),
        },
      };
    },
    tagsOf: (observed) => observed.tags,

    async create(client, spec, _region, ownerTags, ctx, secrets) {
      const name = nameOf(spec);
      if (await existsAlready(client, name, ctx)) return { created: false };
      // A value that is what AWS gives a new object (its declared default) is not sent: some apply
      // only to some objects (SNS refuses ContentBasedDeduplication, even "false", on a standard topic).
      const inMap = Object.fromEntries(
        Object.entries(attributes?.fields ?? {}).flatMap(([field, attribute]) => {
          const value = spec[field];
          const fallback = formOf.get(field)?.default;
          return value === undefined ||
            value === "" ||
            (fallback !== undefined && String(fallback) === String(value))
            ? []
            : [[attribute, String(value)]];
        }),
      );
      const tags = tagShape.withOwner(spec[tagsField], ownerTags);
      // Each secret the spec names, from its Secret (never from the spec).
      const secretValues = Object.fromEntries(
        secretInputs
          .filter((s) => spec[s.field] !== undefined)
          .map((s) => [s.aws, secretValue(s, secrets, groups.create, name)]),
      );
      const input = {
        ...awsMembers(
          generated.codecs,
          spec,
          groups.createFields.filter((f) => f !== tagsField && !isAttribute(f) && !secretFieldSet.has(f)),
        ),
        ...secretValues,
        ...(attributes === undefined || Object.keys(inMap).length === 0
          ? {}
          : { [attributes.member]: inMap }),
        [idAws]: name,
        ...(Object.keys(tags).length === 0 ? {} : { [tagsAws]: tagShape.toAws(tags) }),
      };
      const sent = hooks?.createInput?.(input, spec) ?? input;
      const made = await calls.sendUnless(
        isAlreadyExists,
        ctx,
        groups.create,
        name,
        run(client, groups.create, sent),
        carriedIn(sent),
      );
      if (made === undefined) return { created: false };
      // What the create answered of the object (DynamoDB's TableDescription: its status, CREATING).
      const answered = runtime.objectIn?.[groups.create];
      const status = answered === undefined ? {} : statusOf((made[answered] ?? {}) as Fields);
      const handle = located === undefined ? undefined : made[located.handle];
      if (typeof handle !== "string" || handle === "") return { created: true, status };
      const memo = justMade.get(client.sdk) ?? new Map<string, string>();
      justMade.set(client.sdk, memo.set(name, handle));
      const statusHandle = runtime.status?.handle;
      return {
        created: true,
        status: statusHandle === undefined ? status : { ...status, [statusHandle]: handle },
      };
    },

    async update(client, desired, observed, ownerTags, ctx, secrets) {
      const name = nameOf(desired);
      const differing = new Set(diff(desired, observed.fields).map((d) => d.field));
      // The secrets each set call carries again, read before anything is sent: a call needing one
      // whose value is missing sends nothing at all.
      const resent = new Map(
        groups.groups.map((g) => {
          const carried = secretInputs.filter((s) => {
            if (declared(g.set)?.secrets?.includes(s.aws) !== true) return false;
            if (secrets.changed.includes(`spec.${s.field}`)) return true;
            const also = s.alsoWhen;
            if (also === undefined) return false;
            const field = specOfAws(also.field);
            return desired[field] === also.to && observed.fields[field] === also.from;
          });
          return [g, carried.map((s) => [s, secretValue(s, secrets, g.set, name)] as const)] as const;
        }),
      );
      const address = observed.handle ?? (byArn ? composedArn(client, name) : name);
      const naming = (call: string) => callNaming(call, address, observed.arn);
      // The set calls in the declared order (RDS: tags before ModifyDBInstance), else the groups'.
      const order = runtime.updateOrder ?? [];
      const rank = (set: string) => (order.includes(set) ? order.indexOf(set) : order.length);
      const ordered = [...groups.groups].sort((a, b) => rank(a.set) - rank(b.set));
      /** The fields changed, in the order applied; an update that stops early reports those it sent. */
      const changed: string[] = [];
      /**
       * One set call; whether the object it answered is now busy (runtime.objectIn), so that
       * nothing more may be sent to it in this reconcile.
       */
      const setCall = async (call: string, input: Fields, field: string): Promise<boolean> => {
        const answer = await calls.send(ctx, call, name, run(client, call, { ...input, ...naming(call) }), {
          field,
        });
        const member = runtime.objectIn?.[call];
        const states = addressed.states;
        if (member === undefined || states === undefined) return false;
        return heldBy(states, (answer[member] ?? {}) as Fields) !== undefined;
      };
      /** A field's set call inputs: the kind's hook's, or its members as the codecs send them. */
      const inputsOf = (field: string): readonly Fields[] =>
        hooks?.setInputs?.[field]?.(desired, observed.fields) ?? [
          awsMembers(generated.codecs, desired, [field]),
        ];
      for (const group of ordered) {
        const differs = group.fields.filter((f) => differing.has(f.field)).map((f) => f.field);
        const carried = resent.get(group) ?? [];
        const as = declared(group.set);
        if (as?.send === "changed" && (differs.length > 0 || carried.length > 0)) {
          // One call with only what differs (and the secrets it carries again).
          const input = changedFieldsInput({
            group: as,
            differing: group.fields.filter((f) => differing.has(f.field)),
            codecs: generated.codecs,
            desired,
            observed: observed.fields,
            removed: hooks?.removed,
          });
          for (const [secret, value] of carried) input[secret.aws] = value;
          const paths = [...differs, ...carried.map(([s]) => s.field)].map((f) => `spec.${f}`);
          await calls.send(ctx, group.set, name, run(client, group.set, { ...input, ...naming(group.set) }), {
            ...(paths.length === 1 ? { field: paths[0] } : {}),
            fields: paths,
            ...carriedIn(input),
          });
          changed.push(...differs, ...carried.map(([s]) => s.field));
          continue;
        }
        if (differs.length === 0) continue;
        if (group === tagsGroup) {
          const target = tagTarget(observed);
          if (target !== "") {
            await applyTagChanges(
              tagShape.withOwner(desired[tagsField], ownerTags),
              observed.tags,
              tagWrites(client, name, target, ctx),
            );
          }
          changed.push(...differs);
          continue;
        }
        if (attributes !== undefined && group.fields.every((f) => isAttribute(f.field))) {
          // An attribute map is written one attribute at a time, so that a refusal names its field;
          // a field left out gets what its absence means (its default, "" for none), or nothing.
          for (const rule of group.fields) {
            if (!differing.has(rule.field)) continue;
            const given = desired[rule.field];
            const value = given === undefined ? attributeWhenAbsent(rule) : String(given);
            if (value === undefined) continue;
            const attribute = attributes.fields[rule.field] ?? rule.field;
            const pair = addressed.attributePair;
            await setCall(
              group.set,
              pair === undefined
                ? { [attributes.member]: { [attribute]: value } }
                : { [pair.name]: attribute, [pair.value]: value },
              `spec.${rule.field}`,
            );
          }
          changed.push(...differs);
          continue;
        }
        if (declared(group.set)?.oneChangePerCall === true) {
          // One change per call (DynamoDB's UpdateTable); once the object is busy, the rest waits.
          for (const field of differs) {
            const inputs = inputsOf(field);
            if (inputs.length > 0) changed.push(field);
            for (const input of inputs) {
              if (await setCall(group.set, input, `spec.${field}`)) return changed.map((f) => `spec.${f}`);
            }
          }
          continue;
        }
        const fields = group.fields.map((f) => f.field);
        const fieldPaths = fields.map((f) => `spec.${f}`).join(", ");
        changed.push(...differs);
        // Left out of the spec, with a call of its own that removes it: removed, never "set" empty.
        const remove = group.remove;
        if (remove !== undefined && fields.every((f) => desired[f] === undefined)) {
          await calls.sendUnless(
            (err) => groupNotFound(group.set).has(code(err)),
            ctx,
            remove,
            name,
            run(client, remove, naming(remove)),
            { field: fieldPaths },
          );
          continue;
        }
        // A group is set whole: its call takes (and some calls require) every one of its fields;
        // a group of one field may have its own inputs (the kind's setInputs).
        const [only] = fields;
        const inputs =
          fields.length === 1 && only !== undefined && hooks?.setInputs?.[only] !== undefined
            ? inputsOf(only)
            : [awsMembers(generated.codecs, desired, fields)];
        for (const input of inputs) await setCall(group.set, input, fieldPaths);
      }
      return changed.map((f) => `spec.${f}`);
    },

    claim: (client, observed, ownerTags, ctx) => {
      const target = tagTarget(observed);
      return target === ""
        ? Promise.resolve()
        : claimTags(observed.tags, ownerTags, tagWrites(client, nameOf(observed.fields), target, ctx));
    },

    async delete(client, spec, ctx, annotations) {
      const name = nameOf(spec);
      // What the delete takes beyond the address (RDS's final snapshot, from annotations): a
      // refused annotation sends nothing.
      const extra = hooks?.deleteInput?.(spec, annotations ?? {}) ?? {};
      if (typeof extra["refused"] === "string") {
        throw new ErrorClass({
          disposition: "terminal",
          code: "InvalidAnnotation",
          operation: runtime.delete,
          object: name,
          message: `${runtime.delete} on ${runtime.noun} "${name}" not attempted: ${extra["refused"]}; fix the annotation and the deletion proceeds`,
        });
      }
      const address = await addressOf(client, name, ctx, true);
      if (address === undefined) return "not-found";
      const first = hooks?.deleteFirst;
      if (first !== undefined) {
        // What must go before the object (a global table's replicas elsewhere): read it first.
        const answer = await readCall(client, name, address, ctx);
        const item = byIdentifier
          ? theObject(answer, name)
          : (answer?.[addressed.read.answers] as Fields | undefined);
        if (item === undefined) return "not-found";
        const before = first(item, { region: client.region });
        if (before !== undefined) {
          const states = addressed.states;
          if (states === undefined || heldBy(states, item) === undefined) {
            const arn = String(item[runtime.arn] ?? "");
            await calls.send(
              ctx,
              before.call,
              name,
              run(client, before.call, { ...before.input, ...callNaming(before.call, address, arn) }),
              { field: before.field },
            );
          }
          throw errors.refusal(
            { operation: addressed.delete.call, name, field: before.field },
            before.error.code,
            before.error.message,
          );
        }
      }
      try {
        return await calls.deleteUnlessGone(
          ctx,
          addressed.delete.call,
          name,
          run(client, addressed.delete.call, { ...extra, ...naming(addressed.delete.by, address) }),
        );
      } catch (err) {
        // Refused for its state (RDS's InvalidDBInstanceState): gone meanwhile, or already going, is done.
        const states = addressed.states;
        if (!(err instanceof ErrorClass) || states?.busyCodes?.includes(err.code) !== true) throw err;
        const answer = await readCall(client, name, address, ctx);
        const item = byIdentifier
          ? theObject(answer, name)
          : (answer?.[addressed.read.answers] as Fields | undefined);
        if (item === undefined) return "not-found";
        if (states.deleting?.includes(String(item[states.member])) === true) return "deleted";
        throw err;
      }
    },

    diff: (desired, observed) => pathsOf(diff(desired, observed.fields)),
    lateInitialize(spec, observed) {
      // A field whose absence has a meaning (DynamoDB's billing mode: PROVISIONED) gets that
      // meaning; another gets AWS's value, else what AWS's silence means.
      const r = lateInitializeFields(spec, generated.declared.lateInitialized, (f) => {
        const rule = formOf.get(f);
        if (rule?.absent === "none" && rule.default !== undefined) return rule.default;
        return observed.fields[f] ?? rule?.default;
      });
      return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
    },
    specFromObserved(observed, spec) {
      const { [tagsField]: _tags, ...fields } = observed.fields;
      // Lists AWS reports only part of (DynamoDB's attribute definitions): the spec's others kept.
      for (const [field, key] of partlyReported) {
        const reported = (fields[field] as Fields[] | undefined) ?? [];
        const have = new Set(reported.map((item) => item[key]));
        const kept = ((spec as Fields)[field] as Fields[] | undefined)?.filter(
          (item) => !have.has(item[key]),
        );
        if (kept !== undefined && kept.length > 0) fields[field] = [...reported, ...kept];
      }
      // AWS never reveals a secret: the spec's reference stays what it is.
      for (const secret of secretInputs) {
        const ref = (spec as Fields)[secret.field];
        if (ref !== undefined) fields[secret.field] = ref;
      }
      return adoptedSpec(
        hooks?.adoptedFields?.(fields, spec as Fields) ?? fields,
        tagsField,
        tagShape.user(observed.tags),
        spec as Fields & { identityRef?: unknown },
      );
    },
    arn: (spec, region, account) =>
      regionalArn(kind.service, region, account, `${runtime.arnResource}${nameOf(spec)}`),
    statusFrom: (observed) => {
      const named = runtime.status;
      return {
        ...observed.status,
        ...(named?.handle === undefined || observed.handle === undefined
          ? {}
          : { [named.handle]: observed.handle }),
        ...(named?.arn === undefined || observed.arn === "" ? {} : { [named.arn]: observed.arn }),
      };
    },
    busy: (observed) => busyIn(observed),
    // Only an ARN of the kind's own (RDS answers a snapshot's in other places).
    observedRegion: (observed) => {
      const parts = parseRegionalArn(observed.arn, kind.service);
      return parts?.resource.join(":").startsWith(runtime.arnResource) === true ? parts.region : undefined;
    },
    ...errorReporting(
      (err: unknown): err is InstanceType<typeof ErrorClass> => err instanceof ErrorClass,
      (err, spec: Fields) => classify(err, { operation: runtime.read.call, name: nameOf(spec) }),
    ),
  };
}

/** Times (ISO text, as the codecs write them) without fractions of a second, at any depth. */
function wholeSeconds(value: unknown): unknown {
  if (typeof value === "string")
    return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/.test(value) ? value.replace(/\.\d+Z$/, "Z") : value;
  if (Array.isArray(value)) return value.map(wholeSeconds);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wholeSeconds(v)]));
  return value;
}

/** What a read was answered when the object went between its calls. */
const gone = Symbol("gone");

/** `fields` with what a hook read: a field it gives as undefined is none. */
function withFields(fields: Fields, read: Fields): void {
  for (const [field, value] of Object.entries(read)) {
    if (value === undefined) delete fields[field];
    else fields[field] = value;
  }
}

function codecOf(codecs: FieldCodecs, field: string) {
  const entry = codecs[field];
  if (entry === undefined) throw new Error(`no codec for spec field ${field}`);
  return entry;
}
