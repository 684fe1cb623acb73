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
  failureError,
  fallbackCode,
  genericErrorNames,
  messageOf,
  objectErrorClass,
  type ServiceRules,
  sdkErrorCodeField,
  sdkErrorName,
} from "../service-error.ts";
import { parseSpecWith, parseStatusWith, type ServiceModule } from "../service-module.ts";
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
  /** The spec fields a string-valued attribute map holds (SQS's, SNS's), by attribute name. */
  readonly attributes?: {
    readonly member: string;
    readonly fields: Readonly<Record<string, string>>;
  };
}

/** A kind's genuine quirks. */
export interface DeclaredKindHooks {
  /** Spec fields the read answer holds in another shape (a subnet group's subnets as subnetIDs). */
  readonly fieldsFromAnswer?: (answer: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /** Compare hooks, one per field the declaration says is `custom`. */
  readonly equal?: Readonly<Record<string, EqualHook<Record<string, unknown>>>>;
  /**
   * What the delete call takes beyond the identifier, from the spec and the resource's annotations
   * (ECR's force delete of a repository that still holds images, as ACK has it).
   */
  readonly deleteInput?: (spec: Fields, annotations: Readonly<Record<string, string>>) => Fields;
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
  /** Its state, for a kind that declares long-running states (runtime.states). */
  readonly state?: string;
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
  const genericNames = new Set([...genericErrorNames, `${runtime.service}ServiceException`]);
  const code = (err: unknown): string => {
    // Declarations name codes without AWS's suffixes: RDS's DBSubnetGroupNotFound(Fault), ECR's
    // LifecyclePolicyNotFound(Exception); and by one name where AWS has two (codeAliases).
    const answered = (sdkErrorName(err, genericNames) ?? sdkErrorCodeField(err) ?? fallbackCode(err)).replace(
      /(Fault|Exception)$/,
      "",
    );
    return runtime.codeAliases?.[answered] ?? answered;
  };
  const codes = (list: readonly string[]) => new Set(list);
  const notFound = codes(runtime.notFound);
  const isAlreadyExists = (err: unknown): boolean => {
    const c = code(err);
    return runtime.alreadyExists.some((e) =>
      typeof e === "string"
        ? e === c
        : e.code === c && messageOf(err).toLowerCase().includes(e.message.toLowerCase()),
    );
  };
  const operations = [
    ...(generated.runtime.locate === undefined ? [] : [generated.runtime.locate.call]),
    groups.create,
    runtime.read.call,
    runtime.delete,
    ...groups.groups.flatMap((g) => [g.set, g.read, ...(g.remove === undefined ? [] : [g.remove])]),
  ];
  const rules: ServiceRules<string> = {
    service: runtime.service,
    noun: runtime.noun,
    genericNames,
    terminalCodes: codes(declaration.terminalCodes),
    iamActions: Object.fromEntries(
      operations.map((op) => [op, runtime.iamActions?.[op] ?? `${kind.service}:${op}`]),
    ),
    refusedValue: codes(declaration.terminalCodes),
    accessDenied: codes([
      "AccessDenied",
      "AccessDeniedException",
      "UnauthorizedOperation",
      ...(runtime.accessDenied ?? []),
    ]),
    gone: notFound,
    throttled: codes([
      "Throttling",
      "ThrottlingException",
      "RequestLimitExceeded",
      "TooManyRequestsException",
      ...(runtime.throttled ?? []),
    ]),
  };
  /** The declaration's own hint for a code, worded for the object and the failing field. */
  const hintOf = (c: string, name: string, field: string | undefined): string | undefined => {
    const declared = runtime.hints?.[c];
    const text = typeof declared === "string" ? declared : (declared?.[field ?? ""] ?? declared?.[""]);
    return text?.replaceAll("{name}", name).replaceAll("{field}", field ?? "the spec");
  };
  // The object's name under `object`: an Error's own `name` is its class's ("QueueError").
  const ErrorClass = objectErrorClass<string, "object">(`${kind.kind}Error`, "object");
  // A code about one field names it, whichever call failed (a subnet RDS cannot use: spec.subnetIDs).
  const specNameOf = new Map(Object.entries(generated.codecs).map(([field, [aws]]) => [aws, field]));
  const fieldOfCode = (c: string): string | undefined => {
    const aws = runtime.errorFields?.[c];
    const field = aws === undefined ? undefined : specNameOf.get(aws);
    return field === undefined ? undefined : `spec.${field}`;
  };
  // A message that names the refused field by its AWS name (runtime.fieldNamedIn): the first word
  // that is a spec field's member or attribute name, or its plural ("Topic names must be ...").
  const byAwsName = new Map(
    [...specNameOf, ...Object.entries(attributes?.fields ?? {}).map(([field, a]) => [a, field] as const)].map(
      ([aws, field]) => [aws.toLowerCase(), field],
    ),
  );
  const fieldNamedIn = (c: string, message: string): string | undefined => {
    if (!runtime.fieldNamedIn?.includes(c)) return undefined;
    const field = (message.match(/[A-Za-z]+/g) ?? [])
      .map((w) => byAwsName.get(w.toLowerCase()) ?? byAwsName.get(w.toLowerCase().replace(/s$/, "")))
      .find(Boolean);
    return field === undefined ? undefined : `spec.${field}`;
  };
  const classify = (err: unknown, c: { operation: string; name: string; field?: string }) => {
    const failed = code(err);
    const field = fieldOfCode(failed) ?? c.field ?? fieldNamedIn(failed, messageOf(err));
    return failureError(ErrorClass, rules, err, {
      operation: c.operation,
      name: c.name,
      code: failed,
      field,
      hint: hintOf(failed, c.name, field),
    });
  };
  const calls = serviceCalls<"name", { operation: string; name: string; field?: string }>({
    service: kind.service,
    object: "name",
    isGone: (err) => notFound.has(code(err)),
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

  const nameOf = (spec: Fields): string => String(spec[idField] ?? "");
  // Every call names the object as the model says that call takes it (never a member the call
  // lacks, which the SDK would drop, and AWS answer for every object).
  const addressed = generated.runtime;
  const naming = (address: Address, name: string): Fields => ({
    [address.member]: address.form === "list" ? [name] : name,
  });
  const callNaming = (call: string, name: string): Fields => {
    const address = addressed.calls[call];
    if (address === undefined) throw new Error(`${kind.kind}: no address for ${call}`);
    return naming(address, name);
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
  /** A long-running object not in a state it may be written in (runtime.states): why, in AWS's words. */
  const busyIn = (observed: DeclaredObserved) => {
    const states = addressed.states;
    const state = observed.state;
    if (states === undefined || state === undefined || states.ready.includes(state)) return undefined;
    const what = `${runtime.noun} ${String(observed.fields[idField] ?? "")}`;
    const stuck = states.stuck?.includes(state) === true;
    return {
      reason: states.member,
      message: stuck
        ? `${what} is ${state} in AWS, a state ${runtime.service} does not leave on its own; crossrole changes nothing until it is ${states.ready.join(" or ")}`
        : `${what} is ${state} in AWS; waiting until it is ${states.ready.join(" or ")}`,
      requeueAfterMs: (states.pollSeconds ?? 10) * 1000 * (stuck ? 4 : 1),
    };
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
  /** A group's own codes for "the object has none of these fields" (its read and remove calls). */
  const groupNotFound = (set: string): ReadonlySet<string> =>
    codes(declaration.groups.find((g) => g.set === set)?.notFound ?? []);
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
      const listed = await calls.sendUnlessGone(
        ctx,
        tagsGroup.read,
        name,
        run(client, tagsGroup.read, { [runtime.tags.resource]: tagTarget({ arn, ...handle }) }),
      );
      if (listed === undefined) return { found: false };
      const awsTags = listed[runtime.tags.list];
      const fields: Fields = byIdentifier ? {} : { [idField]: name };
      for (const [field, [member, codec]] of Object.entries(generated.codecs)) {
        if (field === tagsField || item[member] === undefined) continue;
        fields[field] = fromAws(codec, item[member]);
      }
      for (const [field, attribute] of Object.entries(attributes?.fields ?? {})) {
        const value = attributeFromAws(field, item[attribute]);
        if (value !== undefined) fields[field] = value;
      }
      Object.assign(fields, hooks?.fieldsFromAnswer?.(item));
      // Groups read by a call of their own (a repository's lifecycle policy): each read once.
      for (const [call, own] of groupReads) {
        if (!own.always && own.fields.every((f) => spec[f] === undefined)) continue;
        const answer = await calls.sendUnless(
          (err) => own.notFound.has(code(err)),
          ctx,
          call,
          name,
          run(client, call, callNaming(call, address)),
        );
        for (const field of own.fields) {
          const [member, codec] = codecOf(generated.codecs, field);
          const value = answer?.[member];
          if (value === undefined || value === "") delete fields[field];
          else fields[field] = fromAws(codec, value);
        }
      }
      const tagsInSpecForm = tagShape.specFromAws(awsTags);
      if (tagsInSpecForm !== undefined) fields[tagsField] = tagsInSpecForm;
      const status: Fields = {};
      for (const [field, [member, codec]] of Object.entries(generated.statusCodecs)) {
        // In an attribute map, "" is no value.
        if (item[member] !== undefined && (attributes === undefined || item[member] !== ""))
          status[field] = fromAws(codec, item[member]);
      }
      const state = addressed.states === undefined ? undefined : item[addressed.states.member];
      return {
        found: true,
        observed: {
          fields: hooks?.observedFields?.(fields) ?? fields,
          tags: tagShape.mapFromAws(awsTags),
          status,
          arn,
          ...handle,
          ...(typeof state === "string" ? { state } : {}),
        },
      };
    },
    tagsOf: (observed) => observed.tags,

    async create(client, spec, _region, ownerTags, ctx) {
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
      const input = {
        ...awsMembers(
          generated.codecs,
          spec,
          groups.createFields.filter((f) => f !== tagsField && !isAttribute(f)),
        ),
        ...(attributes === undefined || Object.keys(inMap).length === 0
          ? {}
          : { [attributes.member]: inMap }),
        [idAws]: name,
        [tagsAws]: tagShape.toAws(tagShape.withOwner(spec[tagsField], ownerTags)),
      };
      const made = await calls.sendUnless(
        isAlreadyExists,
        ctx,
        groups.create,
        name,
        run(client, groups.create, input),
      );
      if (made === undefined) return { created: false };
      const handle = located === undefined ? undefined : made[located.handle];
      if (typeof handle !== "string" || handle === "") return { created: true, status: {} };
      const memo = justMade.get(client.sdk) ?? new Map<string, string>();
      justMade.set(client.sdk, memo.set(name, handle));
      const statusHandle = runtime.status?.handle;
      return { created: true, status: statusHandle === undefined ? {} : { [statusHandle]: handle } };
    },

    async update(client, desired, observed, ownerTags, ctx) {
      const name = nameOf(desired);
      const differences = diff(desired, observed.fields);
      const differing = new Set(differences.map((d) => d.field));
      const address = observed.handle ?? (byArn ? composedArn(client, name) : name);
      for (const group of groups.groups) {
        if (!group.fields.some((f) => differing.has(f.field))) continue;
        if (group === tagsGroup) {
          await applyTagChanges(
            tagShape.withOwner(desired[tagsField], ownerTags),
            observed.tags,
            tagWrites(client, name, tagTarget(observed), ctx),
          );
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
            await calls.send(
              ctx,
              group.set,
              name,
              run(client, group.set, {
                ...callNaming(group.set, address),
                ...(pair === undefined
                  ? { [attributes.member]: { [attribute]: value } }
                  : { [pair.name]: attribute, [pair.value]: value }),
              }),
              { field: `spec.${rule.field}` },
            );
          }
          continue;
        }
        // A group is set whole: its call takes (and some calls require) every one of its fields.
        const fields = group.fields.map((f) => f.field);
        // Left out of the spec, with a call of its own that removes it: removed, never "set" empty.
        const remove = group.remove;
        if (remove !== undefined && fields.every((f) => desired[f] === undefined)) {
          await calls.sendUnless(
            (err) => groupNotFound(group.set).has(code(err)),
            ctx,
            remove,
            name,
            run(client, remove, callNaming(remove, address)),
            { field: fields.map((f) => `spec.${f}`).join(", ") },
          );
          continue;
        }
        await calls.send(
          ctx,
          group.set,
          name,
          run(client, group.set, {
            ...awsMembers(generated.codecs, desired, fields),
            ...callNaming(group.set, address),
          }),
          { field: fields.map((f) => `spec.${f}`).join(", ") },
        );
      }
      return pathsOf(differences);
    },

    claim: (client, observed, ownerTags, ctx) =>
      claimTags(
        observed.tags,
        ownerTags,
        tagWrites(client, String(observed.fields[idField] ?? ""), tagTarget(observed), ctx),
      ),

    async delete(client, spec, ctx, annotations) {
      const address = await addressOf(client, nameOf(spec), ctx, true);
      if (address === undefined) return "not-found";
      return calls.deleteUnlessGone(
        ctx,
        addressed.delete.call,
        nameOf(spec),
        run(client, addressed.delete.call, {
          ...hooks?.deleteInput?.(spec, annotations ?? {}),
          ...naming(addressed.delete.by, address),
        }),
      );
    },

    diff: (desired, observed) => pathsOf(diff(desired, observed.fields)),
    lateInitialize(spec, observed) {
      const r = lateInitializeFields(spec, generated.declared.lateInitialized, (f) => observed.fields[f]);
      return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
    },
    specFromObserved(observed, spec) {
      const { [tagsField]: _tags, ...fields } = observed.fields;
      return adoptedSpec(
        fields,
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
    observedRegion: (observed) => parseRegionalArn(observed.arn, kind.service)?.region,
    ...errorReporting(
      (err: unknown): err is InstanceType<typeof ErrorClass> => err instanceof ErrorClass,
      (err, spec: Fields) => classify(err, { operation: runtime.read.call, name: nameOf(spec) }),
    ),
  };
}

function codecOf(codecs: FieldCodecs, field: string) {
  const entry = codecs[field];
  if (entry === undefined) throw new Error(`no codec for spec field ${field}`);
  return entry;
}
