// A kind served from its declaration alone (CONTRIBUTING.md, "How a kind is made"): the ServiceModule the reconciler drives,
// built from the declaration (its calls: create, the field groups' set and read calls, read,
// delete, tags), the generated module (schemas, codecs, the calls and drift table) and the SDK
// package whose `<Operation>Command` classes make the calls. What a kind adds is its genuine
// quirks, as hooks: spec fields its read answer holds in another shape, compare hooks for the
// fields it declares `custom`. Every promise of the reconciler holds as for the hand-written
// modules: ownership tags in the create call, nothing written to an object not read first.
import type { z } from "zod";
import { legacyOwnershipKeysIn } from "../../api/ownership-tags.ts";
import type { DeclaredFieldGroups } from "../../codegen/drift-rules.ts";
import type { Address } from "../../codegen/object-address.ts";
import { accountArn, globalArn, parseRegionalArn, regionalArn } from "../arn.ts";
import type { CallContext, SendOptions } from "../call-context.ts";
import { attributeWhenAbsent, declaredDrift, defaultWhenAbsent } from "../declared-drift.ts";
import { lateInitializeFields } from "../field-drift.ts";
import { serviceCalls } from "../service-calls.ts";
import { parseSpecWith, parseStatusWith, type ServiceModule } from "../service-module.ts";
import {
  accountClient,
  adoptedSpec,
  errorReporting,
  pathsOf,
  regionalClient,
} from "../service-module-parts.ts";
import { awsMembers, fromAws } from "../shape-codec.ts";
import { applyTagChanges, claimTags } from "../tag-changes.ts";
import { answerFields, codecOf, specFieldOf, withFields } from "./answer-fields.ts";
import { valueAt } from "./answer-paths.ts";
import { answeredId, assignedIdOf } from "./assigned.ts";
import { changedFieldsInput } from "./changed-input.ts";
import { type CallFailure, declaredKindErrors } from "./errors.ts";
import { itemDefaultsDropper } from "./item-defaults.ts";
import { type ItemsOf, itemsForm, itemWrites, listedId, listedValue } from "./items.ts";
import { allAtOnce, gone, inTurn } from "./read-order.ts";
import { declaredKindSchemas } from "./schemas.ts";
import { declaredSecrets } from "./secrets.ts";
import type {
  Ask,
  DeclaredClient,
  DeclaredKindSource,
  DeclaredObserved,
  Fields,
  Refusal,
  SdkClient,
} from "./source.ts";
import { heldBy, membersOf, waitFor } from "./states.ts";
import { tagCalls } from "./tag-calls.ts";
import { noTags, tagShapeOf } from "./tag-shape.ts";
import { byVariant, variantSources } from "./variants.ts";

export function declaredKindModule<Sdk extends SdkClient>(
  source: DeclaredKindSource<Sdk>,
): ServiceModule<Fields, DeclaredObserved, DeclaredClient<Sdk>> {
  // Objects AWS serves otherwise by their identifier (S3's directory buckets): a module each.
  const variants = variantSources(source).map((v) => ({ suffix: v.suffix, module: kindModule(v.source) }));
  return byVariant(kindModule(source), variants);
}

function kindModule<Sdk extends SdkClient>(
  source: DeclaredKindSource<Sdk>,
): ServiceModule<Fields, DeclaredObserved, DeclaredClient<Sdk>> {
  const { kind, declaration, generated, hooks } = source;
  const runtime = declaration.runtime;
  const groups = generated.fieldGroups;
  const idField = generated.declared.identifier;
  // Named by an ID AWS assigns (runtime.assigned, assigned.ts): no spec field, no create member.
  const assignedId = runtime.assigned;
  const idAws = assignedId === undefined ? codecOf(generated.codecs, idField)[0] : declaration.identifier;
  const tagsGroup = groups.groups.find((g) => g.fields.some((f) => f.form === "tags"));
  const tagsField = tagsGroup?.fields.find((f) => f.form === "tags")?.field;
  // AWS cannot tag it (runtime.tags absent): the controller records whose it is (untaggable).
  const untaggable = runtime.tags === undefined;
  if (untaggable) {
    if (tagsGroup !== undefined || assignedId !== undefined || hooks?.createdAt === undefined)
      throw new Error(
        `${kind.kind}: a kind AWS cannot tag has no tags group, is named by its spec, and says when AWS made an object (createdAt)`,
      );
  } else if (tagsGroup === undefined || tagsField === undefined || tagsGroup.remove === undefined) {
    throw new Error(`${kind.kind}: the generic runtime needs a tags group with a remove call`);
  }
  for (const g of declaration.groups) {
    if (g.byHook === true && hooks?.writes?.[g.set] === undefined)
      throw new Error(
        `${kind.kind}: the group ${g.set} is written by the kind (byHook), which has no writes.${g.set} hook`,
      );
  }
  const [tagsAws, tagsCodec] =
    tagsField === undefined ? ["", undefined] : codecOf(generated.codecs, tagsField);
  const tagShape = tagsCodec === undefined ? noTags : tagShapeOf(tagsCodec);
  const schemas = source.schemas ?? declaredKindSchemas({ kind, declaration: { runtime }, generated });
  const attributes = generated.attributes;
  const isAttribute = (field: string) => attributes !== undefined && field in attributes.fields;
  const formOf = new Map(groups.groups.flatMap((g) => g.fields.map((f) => [f.field, f] as const)));
  /**
   * Whether a field's value is none: absent, `""` for a document, empty tags, or what the kind's
   * `isNone` says (S3's public access block with every flag false).
   */
  const isNone = (field: string, spec: Fields): boolean => {
    const value = spec[field];
    const own = hooks?.isNone?.[field];
    if (own !== undefined) return own(value, spec);
    if (value === undefined) return true;
    const form = formOf.get(field)?.form;
    if (form === "document" && value === "") return true;
    return form === "tags" && Object.keys(tagShape.withOwner(value, {})).length === 0;
  };
  const groupOf = (set: string) => {
    const group = groups.groups.find((g) => g.set === set);
    if (group === undefined) throw new Error(`${kind.kind}: no group sets by ${set}`);
    return group;
  };
  /** Create-call members left to the first update (S3's ACL). */
  const notInCreate = new Set(runtime.notInCreate ?? []);
  /** The spec field a create's failure is about (runtime.createField), by its spec path. */
  const createField =
    runtime.createField === undefined
      ? undefined
      : `spec.${specFieldOf(generated.codecs, runtime.createField, generated.awsNames)}`;

  // ---- calls and their errors ----
  const errors = declaredKindErrors(kind.kind, declaration.service, declaration, {
    codecs: generated.codecs,
    awsNames: generated.awsNames,
    attributes: attributes?.fields,
    ...(hooks?.errorDetail === undefined ? {} : { detail: hooks.errorDetail }),
  });
  const { code, isAlreadyExists, classify, ErrorClass } = errors;
  const codes = (list: readonly string[]) => new Set(list);
  const calls = serviceCalls<"name", CallFailure>({
    service: declaration.service,
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

  /** The calls a kind's hooks make (a bucket's region, whose a name is), through the runtime's. */
  const askFor =
    (client: DeclaredClient<Sdk>, name: string, ctx: CallContext): Ask =>
    (call, input, o) => {
      const detail = o?.field === undefined ? {} : { field: o.field };
      return o?.unlessGone === true
        ? calls.sendUnlessGone(ctx, call, name, run(client, call, input), detail)
        : calls.send(ctx, call, name, run(client, call, input), detail);
    };
  /** The kind's terminal error for a refusal its hook words. */
  const refused = (r: Refusal, operation: string, name: string, cause?: unknown) =>
    new ErrorClass({
      disposition: "terminal",
      code: r.code,
      operation,
      object: name,
      field: r.field,
      message: r.message,
      ...(cause === undefined ? {} : { cause }),
    });

  // Every call names the object as the model says that call takes it (never a member the call
  // lacks, which the SDK would drop, and AWS answer for every object).
  const addressed = generated.runtime;
  /** What AWS calls the object: the spec's identifier, lower-cased where AWS stores it so (RDS). */
  const nameOf = (spec: Fields): string => {
    const given = String(spec[idField] ?? "");
    const name = given === "" ? given : (hooks?.identifier?.(given) ?? given);
    return addressed.lowercase === true ? name.toLowerCase() : name;
  };
  const naming = (address: Address, name: string): Fields =>
    address.form === "none" ? {} : { [address.member]: address.form === "list" ? [name] : name };
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
  /** The object a read answered: whole, the one of `name` among those listed, or the one named by handle or ARN. */
  const objectOf = (answer: Fields | undefined, name: string): Fields | undefined => {
    const object = addressed.read.whole
      ? wholeObject(answer)
      : byIdentifier
        ? theObject(answer, name)
        : (answer?.[addressed.read.answers] as Fields | undefined);
    // Members answered beside it that are its own too (Lambda's tags and concurrency).
    const beside = runtime.read.beside ?? [];
    if (object === undefined || beside.length === 0) return object;
    return { ...object, ...Object.fromEntries(beside.map((m) => [m, answer?.[m]])) };
  };
  /** The answered object is being deleted (runtime.goneWhen: a secret's DeletedDate): none. */
  const beingDeleted = (item: Fields): boolean => {
    const member = runtime.goneWhen;
    return member !== undefined && item[member] !== undefined && item[member] !== null;
  };
  /** Whether the read names the object by its identifier (so its answer may list others). */
  const byIdentifier = located === undefined && !byArn;
  /**
   * The object's ARN in the client's account and region, for a kind AWS addresses by it; with the
   * spec's path where the ARN has one (IAM's policies: `policy/<path>/<name>`).
   */
  const composedArn = (client: DeclaredClient<Sdk>, spec: Fields): string => {
    if (client.account === undefined)
      throw new Error(`${kind.kind}: addressed by ARN, the client needs its account`);
    const name = nameOf(spec);
    return runtime.arnScope === "account"
      ? accountArn(declaration.service, client.region, client.account, arnResourceOf(spec, name))
      : regionalArn(declaration.service, client.region, client.account, `${runtime.arnResource}${name}`);
  };
  const readCall = async (client: DeclaredClient<Sdk>, name: string, address: string, ctx: CallContext) => {
    const read = addressed.read;
    const input = { ...addressed.readInput, ...naming(read.by, address) };
    const page = read.page;
    if (page === undefined) return calls.sendUnlessGone(ctx, read.call, name, run(client, read.call, input));
    // A list naming no object: every page until the one named shows (its items only kept so).
    const listed: unknown[] = [];
    let token: unknown;
    do {
      const answer = await calls.send(
        ctx,
        read.call,
        name,
        run(client, read.call, { ...input, ...(token === undefined ? {} : { [page.input]: token }) }),
      );
      const items = (answer[read.answers] as unknown[] | undefined) ?? [];
      listed.push(...items);
      if (theObject({ [read.answers]: items }, name) !== undefined) break;
      token = answer[page.output];
    } while (token !== undefined && token !== "");
    return { [read.answers]: listed };
  };
  /**
   * What the tag calls name the object by: as its other calls do (S3's Bucket), its handle where
   * they take it (SQS), else its ARN.
   */
  const tagsByIdentifier = runtime.tags?.by === "identifier";
  const tagTarget = (observed: Pick<DeclaredObserved, "arn" | "handle" | "fields">) =>
    tagsByIdentifier || runtime.tags?.client !== undefined
      ? nameOf(observed.fields)
      : located !== undefined && runtime.tags?.resource === located.handle
        ? (observed.handle ?? "")
        : observed.arn;
  /**
   * The handle a create just answered, per client (so per account and region) and name, taken by
   * the read that follows: it need not ask for what AWS has just said. Taken once; a later read
   * asks again (the object may be deleted out of band).
   */
  const justMade = new WeakMap<object, Map<string, string>>();
  /** What calls name the object by: its identifier, or (runtime.locate) the handle AWS gives for it; undefined: none. */
  const addressOf = async (
    client: DeclaredClient<Sdk>,
    spec: Fields,
    ctx: CallContext,
    fresh = false,
  ): Promise<string | undefined> => {
    if (byArn) return composedArn(client, spec);
    const name = nameOf(spec);
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
  /** Items' members at their default left out (item-defaults.ts): the observed side never has them. */
  const withoutItemDefaults = itemDefaultsDropper(declaration, generated.codecs, generated.awsNames);
  const drift = declaredDrift<Fields, DeclaredFieldGroups>(groups, (hooks?.equal ?? {}) as never);
  const diff = (desired: Fields, observed: Fields) => drift(withoutItemDefaults(desired), observed);
  /** The tag calls: read, written whole or tag by tag (tag-calls.ts). */
  const tagging =
    tagsGroup === undefined || tagsField === undefined
      ? undefined
      : tagCalls({
          kind: kind.kind,
          runtime,
          group: tagsGroup,
          field: tagsField,
          member: tagsAws,
          shape: tagShape,
          calls,
          run,
          none: (err) => groupNotFound(tagsGroup.set).has(code(err)),
          isGone: errors.isNotFound,
          page: addressed.tagsPage,
          arnOf: (name, region, account) => arnOf({}, name, region, account),
          moreSdk: source.moreSdk,
          // Named by the identifier, as the model says each tag call takes it (EC2's `Resources: [id]`).
          naming: (operation, target) => {
            const at = tagsByIdentifier ? addressed.calls[operation] : undefined;
            return at === undefined ? undefined : naming(at, target);
          },
          untagItem: addressed.untagItem,
        });
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
  const existsAlready = async (client: DeclaredClient<Sdk>, spec: Fields, ctx: CallContext) => {
    if (located !== undefined) return (await addressOf(client, spec, ctx, true)) !== undefined;
    if (byArn && runtime.createAnswersExisting === true)
      return (await readCall(client, nameOf(spec), composedArn(client, spec), ctx)) !== undefined;
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
  /** What the answered objects hold, in spec and status form (answer-fields.ts). */
  const reading = answerFields(source);
  const statusOf = reading.statusOf;
  /** The kind's secrets (runtime.secrets: secrets.ts). */
  const kindSecrets = declaredSecrets(source, (init) => new ErrorClass(init));
  /** Read calls of their own, with the fields each reads back and the codes that mean "none". */
  const groupReads = new Map<
    string,
    {
      fields: string[];
      notFound: Set<string>;
      always: boolean;
      sets: string[];
      items?: ItemsOf;
      /** Members of the object's read answer the call takes (FieldGroup.readInput). */
      input?: Readonly<Record<string, string>>;
      /** Where its answer holds a field, by AWS name (FieldGroup.readAt). */
      at?: Readonly<Record<string, string>>;
      /** Constant members it takes (FieldGroup.readWith). */
      with?: Readonly<Record<string, unknown>>;
      /** It answers one field at a time: each field's members (FieldGroup.readEach). */
      each?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    }
  >();
  const lateInitialized = new Set(generated.declared.lateInitialized);
  for (const g of groups.groups) {
    if (g === tagsGroup || g.read === addressed.read.call) continue;
    const entry = groupReads.get(g.read) ?? {
      fields: [],
      notFound: new Set<string>(),
      always: false,
      sets: [],
    };
    entry.fields.push(...g.fields.map((f) => f.field));
    entry.sets.push(g.set);
    // Fields AWS keeps while the spec leaves them out (SNS's data protection policy) need no read then.
    entry.always ||= g.fields.some((f) => f.absent !== "kept" || lateInitialized.has(f.field));
    for (const c of groupNotFound(g.set)) entry.notFound.add(c);
    const own = declared(g.set);
    if (own?.items !== undefined) entry.items = own.items;
    if (own?.readInput !== undefined) entry.input = { ...entry.input, ...own.readInput };
    if (own?.readAt !== undefined) entry.at = { ...entry.at, ...own.readAt };
    if (own?.readWith !== undefined) entry.with = { ...entry.with, ...own.readWith };
    if (own?.readEach !== undefined) entry.each = { ...entry.each, ...own.readEach };
    groupReads.set(g.read, entry);
  }
  /** The ARN: as the read answered it, or composed where it names neither region nor account (S3's). */
  const placeless = runtime.arnScope === "global";
  /** The ARN's resource part: the declared prefix, the path where the kind has one (IAM's), the name. */
  const arnResourceOf = (spec: Fields, name: string): string => {
    // In spec form (the spec's field) or as AWS answered it (its member).
    const at = runtime.arnPath;
    const path = at === undefined ? undefined : (spec[specFieldOf(generated.codecs, at)] ?? spec[at]);
    const inner = typeof path === "string" ? path.replace(/^\/+|\/+$/g, "") : "";
    return `${runtime.arnResource}${inner === "" ? "" : `${inner}/`}${name}`;
  };
  const arnOf = (item: Fields, name: string, region: string, account?: string): string =>
    placeless
      ? globalArn(declaration.service, region, `${runtime.arnResource}${name}`)
      : runtime.arnScope === "regional" || runtime.arnScope === "account"
        ? account === undefined || account === ""
          ? // A client that does not know its account: the ARN as AWS answered it, if it did.
            String(item[runtime.arn ?? ""] ?? "")
          : runtime.arnScope === "account"
            ? accountArn(declaration.service, region, account, arnResourceOf(item, name))
            : regionalArn(
                runtime.arnService ?? declaration.service,
                region,
                account,
                `${runtime.arnResource}${name}`,
              )
        : String(item[runtime.arn ?? ""] ?? "");
  /** The object a call answered (runtime.objectIn): under its member, or (`""`) the whole answer. */
  const answeredObject = (answer: Fields, member: string): Fields =>
    member === "" ? (wholeObject(answer) ?? {}) : ((answer[member] ?? {}) as Fields);
  /** Whether the object a call answered (runtime.objectIn) is in a state that holds writes. */
  const busyAfter = (call: string, answer: Fields): boolean => {
    const member = runtime.objectIn?.[call];
    const states = addressed.states;
    if (member === undefined || states === undefined) return false;
    return heldBy(states, answeredObject(answer, member)) !== undefined;
  };
  /** Where a whole-answer read's object is: the answer less the SDK's metadata. */
  const wholeObject = (answer: Fields | undefined): Fields | undefined => {
    if (answer === undefined) return undefined;
    const { $metadata: _, ...item } = answer;
    return item;
  };
  /** A group read by a call of its own, page by page for a list of items; `gone` when the object went. */
  const groupRead = async (
    client: DeclaredClient<Sdk>,
    name: string,
    call: string,
    own: {
      fields: string[];
      notFound: Set<string>;
      always?: boolean;
      items?: ItemsOf;
      each?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    },
    naming: Fields,
    ctx: CallContext,
    /** The spec, where only the fields it sets are read (FieldGroup.readEach: a call each). */
    spec?: Fields,
  ): Promise<unknown> => {
    if (own.each !== undefined) {
      // One field per call (EC2's DescribeVpcAttribute): each the spec sets asked (all, where one
      // left out means something), the answers merged.
      const merged: Fields = {};
      const asked = (field: string) =>
        spec === undefined ||
        own.always ||
        spec[specFieldOf(generated.codecs, field, generated.awsNames)] !== undefined;
      for (const [field, members] of Object.entries(own.each).filter(([f]) => asked(f))) {
        const answer = await groupRead(
          client,
          name,
          call,
          { ...own, fields: [specFieldOf(generated.codecs, field, generated.awsNames)], each: undefined },
          { ...naming, ...members },
          ctx,
        );
        if (answer === gone) return gone;
        const { $metadata: _, ...fields } = (answer ?? {}) as Fields;
        Object.assign(merged, fields);
      }
      return merged;
    }
    const page = own.items?.page;
    let listed: unknown[] | undefined;
    let token: unknown;
    do {
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
        run(client, call, {
          ...naming,
          ...(token === undefined || page === undefined ? {} : { [page.input]: token }),
        }),
        { field: own.fields.map((f) => `spec.${f}`).join(", ") },
      );
      if (objectGone) return gone;
      if (own.items === undefined) return answer;
      listed = [...(listed ?? []), ...((answer?.[own.items.list] as unknown[] | undefined) ?? [])];
      const more = page?.more === undefined || answer?.[page.more] === true;
      token = page === undefined || !more ? undefined : answer?.[page.output];
    } while (token !== undefined && token !== "");
    const items = own.items;
    if (items === undefined) return undefined;
    const get = items.get;
    if (get === undefined) return { [items.list]: listed };
    // A map's items: each one's value by its own read (IAM's GetRolePolicy), gone meanwhile left out.
    const values = new Map<string, unknown>();
    for (const id of (listed ?? []).map((i) => listedId(i, items))) {
      const answer = await calls.sendUnless(
        (err) => own.notFound.has(code(err)) || errors.isNotFound(err),
        ctx,
        get,
        name,
        run(client, get, { ...naming, [items.id]: id }),
        { field: own.fields.map((f) => `spec.${f}`).join(", ") },
      );
      const value = answer?.[items.value ?? ""];
      if (value !== undefined) values.set(id, reading.decodedMember(items.value ?? "", value));
    }
    return { [items.list]: listedValue("map", items, [...values.keys()], values) };
  };
  /**
   * What AWS has of the object `item` (the read's answer; `{}` right after a create): the tags and
   * the groups of `wanted` read at once or in turn, in spec form; undefined when it went meanwhile.
   */
  const observe = async (
    client: DeclaredClient<Sdk>,
    spec: Fields,
    name: string,
    found: { item: Fields; arn: string; address: string; region?: string },
    wanted: [string, NonNullable<ReturnType<typeof groupReads.get>>][],
    ctx: CallContext,
  ): Promise<DeclaredObserved | undefined> => {
    const { item, arn, address } = found;
    const handle = located === undefined ? {} : { handle: address };
    // Tags in the read answer (RDS's TagList), else by a call of their own; no ARN answered (an
    // emulator's answer), no tags to read.
    const target = tagTarget({ arn, ...handle, fields: spec });
    const inAnswer = runtime.tags?.inAnswer;
    const tagRead = async (): Promise<unknown> =>
      inAnswer !== undefined
        ? item[inAnswer]
        : target === "" || tagging === undefined
          ? undefined
          : tagging.read(client, name, target, ctx);
    const reads = [
      tagRead,
      ...wanted.map(
        ([call, own]) =>
          () =>
            groupRead(
              client,
              name,
              call,
              own,
              {
                ...own.with,
                ...callNaming(call, address, arn),
                // What the call takes from the object's own answer (the policy's default version).
                ...Object.fromEntries(Object.entries(own.input ?? {}).map(([m, from]) => [m, item[from]])),
              },
              ctx,
              spec,
            ),
      ),
    ];
    const answers = runtime.read.groupsAtOnce === true ? await allAtOnce(reads) : await inTurn(reads);
    const [awsTags, ...groupAnswers] = answers;
    if (answers.includes(gone) || answers.length < reads.length) return undefined;
    const fields = reading.fieldsOf(item);
    // The object found is the one named: its identifier as the spec spells it (RDS answers lower case).
    fields[idField] = spec[idField] ?? name;
    wanted.forEach(([call, own], i) => {
      const answer = groupAnswers[i] as Fields | undefined;
      const fromHook = hooks?.groupFieldsFromAnswer?.[call];
      if (fromHook !== undefined) {
        for (const field of own.fields) delete fields[field];
        withFields(fields, answer === undefined ? {} : fromHook(answer));
        return;
      }
      for (const field of own.fields) {
        const [member, codec] = codecOf(generated.codecs, field);
        const listed = own.items === undefined ? undefined : answer?.[own.items.list];
        // A list of IDs is read from the listed items (IAM's attached policies: their PolicyArn).
        const at = own.at?.[member];
        const value =
          own.items === undefined
            ? reading.decodedMember(member, at === undefined ? answer?.[member] : valueAt(answer ?? {}, at))
            : Array.isArray(listed) && itemsForm(codec) === "ids"
              ? listedValue("ids", own.items, listed)
              : listed;
        if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0))
          delete fields[field];
        else fields[field] = fromAws(codec, value);
      }
    });
    const tagsInSpecForm = tagShape.specFromAws(awsTags);
    if (tagsInSpecForm !== undefined && tagsField !== undefined) fields[tagsField] = tagsInSpecForm;
    Object.assign(fields, withoutItemDefaults(fields));
    const status = statusOf(item);
    const busy = addressed.states === undefined ? undefined : heldBy(addressed.states, item);
    return {
      fields: hooks?.observedFields?.(fields) ?? fields,
      tags: tagShape.mapFromAws(awsTags),
      status,
      arn,
      ...handle,
      ...(found.region === undefined ? {} : { region: found.region }),
      ...(busy === undefined ? {} : { busy }),
    };
  };
  /** The groups a read right after a create asks (runtime.afterCreate), by read call. */
  const decidedOnCreate = runtime.afterCreate?.read;
  const createdReads = [...groupReads].filter(([, own]) =>
    own.sets.some((set) => decidedOnCreate?.includes(set) === true),
  );

  return {
    kind,
    parseSpec: parseSpecWith(schemas.spec as unknown as z.ZodType<Fields>),
    parseStatus: parseStatusWith(schemas.status),
    client:
      source.client ??
      (byArn ? accountClient(source.clientFactory, "sdk") : regionalClient(source.clientFactory, "sdk")),
    identifier: nameOf,
    identifierField: `spec.${idField}`,
    ...(runtime.arnScope === "account" ? { regionless: true as const } : {}),
    ...(generated.declared.lateInitialized.length > 0 ? { lateInitializes: true as const } : {}),
    ...(runtime.principals === undefined
      ? {}
      : {
          principalFields: runtime.principals.map((aws) =>
            specFieldOf(generated.codecs, aws, generated.awsNames),
          ),
        }),
    ...(generated.declared.specTags === undefined ? {} : { specTags: generated.declared.specTags }),
    references: generated.references,
    ...(hooks?.adoptionSeed === undefined ? {} : { adoptionSeed: hooks.adoptionSeed }),
    ...(kindSecrets.fields.size === 0 ? {} : { secretFields: kindSecrets.references }),
    ...(assignedId === undefined ? {} : { assigned: assignedIdOf(source, idField, askFor) }),

    async read(client, spec, ctx) {
      const name = nameOf(spec);
      // No ID yet (runtime.assigned): nothing to name, so nothing is read.
      if (assignedId !== undefined && name === "") return { found: false };
      const address = await addressOf(client, spec, ctx);
      if (address === undefined) return { found: false };
      let answer: Fields | undefined;
      try {
        answer = await readCall(client, name, address, ctx);
      } catch (err) {
        // Denied a name another account holds (S3's global names): nothing of this account's.
        const held =
          err instanceof ErrorClass
            ? await hooks?.readDenied?.(err, name, askFor(client, name, ctx))
            : undefined;
        if (held !== undefined) return { found: false, heldElsewhere: held };
        throw err;
      }
      // Read by its handle or ARN, or answered whole, the answer is the object's alone; read by
      // name, it may list others.
      const answered = objectOf(answer, name);
      if (answered === undefined) return { found: false };
      // What the answer lacks, read by the kind's own calls (EC2: a VPC's default security group rules).
      const item =
        hooks?.answerMore === undefined
          ? answered
          : { ...answered, ...(await hooks.answerMore(askFor(client, name, ctx), answered, spec)) };
      // Being deleted (a secret scheduled for deletion, answered until it is gone): none.
      if (beingDeleted(item)) return { found: false };
      // Where it lives, where the ARN does not say: the answer's member (a listed directory
      // bucket's), else the kind's hook (S3's HeadBucket, GetBucketLocation).
      const member = runtime.regionMember;
      const region =
        member !== undefined
          ? typeof item[member] === "string" && item[member] !== ""
            ? String(item[member])
            : client.region
          : await hooks?.region?.(item, name, askFor(client, name, ctx));
      if ((member !== undefined || hooks?.region !== undefined) && region === undefined)
        return { found: false };
      // Groups read by a call of their own (a repository's lifecycle policy): each read once.
      const wanted = [...groupReads].filter(
        ([, own]) => own.always || own.fields.some((f) => spec[f] !== undefined),
      );
      const arn = arnOf(item, name, region ?? client.region, client.account);
      const observed = await observe(
        client,
        spec,
        name,
        { item, arn, address, ...(region === undefined ? {} : { region }) },
        wanted,
        ctx,
      );
      return observed === undefined ? { found: false } : { found: true, observed };
    },
    ...(decidedOnCreate === undefined
      ? {}
      : {
          // Right after this reconcile's create: only what AWS decides on a new object, in the
          // region it was created in; what it cannot have yet is none, and what it has for sure is the kind's.
          async readCreated(client: DeclaredClient<Sdk>, spec: Fields, region: string, ctx: CallContext) {
            const name = nameOf(spec);
            const address = (await addressOf(client, spec, ctx)) ?? name;
            const arn = arnOf({}, name, region, client.account);
            const observed = await observe(
              client,
              spec,
              name,
              {
                item: {},
                arn,
                address,
                ...(hooks?.region === undefined && runtime.regionMember === undefined ? {} : { region }),
              },
              createdReads,
              ctx,
            );
            if (observed === undefined) return { found: false as const };
            const known = hooks?.knownAfterCreate?.(spec) ?? {};
            return {
              found: true as const,
              observed: { ...observed, fields: { ...known, ...observed.fields } },
            };
          },
        }),
    tagsOf: (observed) => observed.tags,
    ...(untaggable ? { untaggable: true as const } : {}),

    async create(client, spec, region, ownerTags, ctx, secrets) {
      const name = nameOf(spec);
      // A client for another region would create the object where it does not belong.
      const clientRegion = client.region;
      if (clientRegion !== region) {
        throw new Error(
          `${groups.create}: the ${runtime.service} client is configured for ${clientRegion} but the ${runtime.noun} belongs in ${region}`,
        );
      }
      const refusal = hooks?.createRefused?.(spec, {
        region,
        ...(client.account === undefined ? {} : { account: client.account }),
      });
      if (refusal !== undefined) throw refused(refusal, groups.create, name);
      if (await existsAlready(client, spec, ctx)) return { created: false };
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
      const tags = tagsField === undefined ? {} : tagShape.withOwner(spec[tagsField], ownerTags);
      // Each secret the spec names, from its Secret (never from the spec).
      const secretValues = kindSecrets.forCreate(spec, secrets, groups.create, name);
      const input = {
        ...awsMembers(
          generated.codecs,
          spec,
          groups.createFields.filter(
            (f) =>
              f !== tagsField &&
              !isAttribute(f) &&
              !kindSecrets.fields.has(f) &&
              !notInCreate.has(codecOf(generated.codecs, f)[0]),
          ),
        ),
        ...secretValues,
        ...(attributes === undefined || Object.keys(inMap).length === 0
          ? {}
          : { [attributes.member]: inMap }),
        ...(assignedId === undefined ? { [idAws]: name } : {}),
        ...(Object.keys(tags).length === 0 ||
        runtime.tags?.inCreate !== undefined ||
        runtime.tags?.specification !== undefined
          ? {}
          : { [tagsAws]: tagShape.toAws(tags) }),
        // In a tag specification of the object's type (EC2's TagSpecifications).
        ...(Object.keys(tags).length === 0 || runtime.tags?.specification === undefined
          ? {}
          : {
              TagSpecifications: [
                { ResourceType: runtime.tags?.specification, [tagsAws]: tagShape.listToAws(tags) },
              ],
            }),
      };
      // Tags elsewhere in the create's input (S3's CreateBucketConfiguration.Tags).
      if (runtime.tags?.inCreate !== undefined && Object.keys(tags).length > 0)
        atPath(input, runtime.tags?.inCreate, tagShape.listToAws(tags));
      const sent = hooks?.createInput?.(input, spec, { region }) ?? input;
      let made: Fields | undefined;
      try {
        made = await calls.sendUnless(
          isAlreadyExists,
          ctx,
          groups.create,
          name,
          run(client, groups.create, sent),
          {
            ...(createField === undefined ? {} : { field: createField }),
            ...kindSecrets.carriedIn(sent),
          },
        );
      } catch (err) {
        // What a denial means where the kind can tell by asking (S3: a name another account holds).
        if (!(err instanceof ErrorClass)) throw err;
        const why = await hooks?.createDenied?.(err, name, askFor(client, name, ctx));
        throw why === undefined ? err : refused(why, groups.create, name, err.cause ?? err);
      }
      if (made === undefined) {
        // Named by an ARN holding the spec's path (IAM's policies), while names are unique without
        // it: a name taken under another path is no object this spec names. Said once, terminal,
        // rather than looked for under this path at every reconcile.
        const at = runtime.arnPath;
        if (
          byArn &&
          at !== undefined &&
          (await readCall(client, name, composedArn(client, spec), ctx)) === undefined
        ) {
          const field = specFieldOf(generated.codecs, at, generated.awsNames);
          throw refused(
            {
              code: "AlreadyExistsElsewhere",
              field: `spec.${field}`,
              message: `a ${runtime.noun} named "${name}" exists in this account under another path than ${String(spec[field] ?? "/")}: set spec.${field} to its path to manage it, or choose another name`,
            },
            groups.create,
            name,
          );
        }
        return { created: false };
      }
      // What the create answered of the object (DynamoDB's TableDescription: its status, CREATING).
      const answered = runtime.objectIn?.[groups.create];
      const status = {
        ...(answered === undefined ? {} : statusOf(answeredObject(made, answered))),
        ...hooks?.createdStatus?.(made, name),
      };
      const id = answeredId(source, made);
      if (id !== undefined) return { created: true, status, id };
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
        groups.groups.map((g) => [
          g,
          kindSecrets.resent(declared(g.set)?.secrets ?? [], desired, observed.fields, secrets, g.set, name),
        ]),
      );
      const address = observed.handle ?? (byArn ? composedArn(client, desired) : name);
      const naming = (call: string) => callNaming(call, address, observed.arn);
      // The set calls in the declared order (RDS: tags before ModifyDBInstance), else the groups'.
      const order = runtime.updateOrder ?? [];
      // A group removed that must go first (S3's replication, before versioning is suspended).
      const first = (set: string) =>
        declared(set)?.removeFirst === true && groupOf(set).fields.every((f) => isNone(f.field, desired));
      const rank = (set: string) =>
        first(set) ? -1 : order.includes(set) ? order.indexOf(set) : order.length;
      const ordered = [...groups.groups].sort((a, b) => rank(a.set) - rank(b.set));
      /** The fields changed, in the order applied; an update that stops early reports those it sent. */
      const changed: string[] = [];
      /** What must be done before a set call (the kind's beforeSet: a policy's oldest version removed). */
      const before = (call: string) => hooks?.beforeSet?.[call]?.(askFor(client, name, ctx), naming(call));
      /**
       * One set call; whether the object it answered is now busy (runtime.objectIn), so that
       * nothing more may be sent to it in this reconcile.
       */
      const setCall = async (call: string, input: Fields, field: string): Promise<boolean> => {
        await before(call);
        // With the group's constant members (FieldGroup.input: KMS's PolicyName).
        const constant = declared(call)?.input;
        const answer = await calls.send(
          ctx,
          call,
          name,
          run(client, call, { ...constant, ...input, ...naming(call) }),
          { field },
        );
        return busyAfter(call, answer);
      };
      /**
       * A field's set call inputs: the kind's hook's, or its members as the codecs send them, left
       * out as what its absence means, where the set call takes it (FieldGroup.setAt).
       */
      const inputsOf = (field: string, set: string): readonly Fields[] => {
        const own = hooks?.setInputs?.[field]?.(desired, observed.fields);
        if (own !== undefined) return own;
        const given = { [field]: desired[field] ?? defaultWhenAbsent(formOf.get(field)) };
        const input = awsMembers(generated.codecs, given, [field]);
        const [member] = codecOf(generated.codecs, field);
        const at = declared(set)?.setAt?.[member];
        if (at === undefined || !(member in input)) return [input];
        const moved: Fields = {};
        atPath(moved, at, input[member]);
        return [moved];
      };
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
          for (const secret of carried) input[secret.aws] = secret.value;
          const paths = [...differs, ...carried.map((c) => c.field)].map((f) => `spec.${f}`);
          await before(group.set);
          const answer = await calls.send(
            ctx,
            group.set,
            name,
            run(client, group.set, { ...input, ...naming(group.set) }),
            {
              ...(paths.length === 1 ? { field: paths[0] } : {}),
              fields: paths,
              ...kindSecrets.carriedIn(input),
            },
          );
          changed.push(...differs, ...carried.map((c) => c.field));
          // The object now busy with it (a Lambda function updating): the rest waits for the next reconcile.
          if (busyAfter(group.set, answer)) return changed.map((f) => `spec.${f}`);
          continue;
        }
        if (differs.length === 0) continue;
        if (as?.byHook === true) {
          // The kind writes it (its calls name something other than the object: a CIDR block's association).
          await hooks?.writes?.[group.set]?.(askFor(client, name, ctx), address, desired, observed.fields);
          changed.push(...differs);
          continue;
        }
        if (group === tagsGroup && tagging !== undefined && tagsField !== undefined) {
          const target = tagTarget(observed);
          if (runtime.tags?.replace === true) {
            await tagging.replace(
              client,
              name,
              target,
              tagShape.withOwner(desired[tagsField], ownerTags),
              ctx,
            );
          } else if (target !== "") {
            await applyTagChanges(
              tagShape.withOwner(desired[tagsField], ownerTags),
              observed.tags,
              tagging.writes(client, name, target, ctx),
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
            const inputs = inputsOf(field, group.set);
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
        const items = as?.items;
        const [only] = fields;
        if (items !== undefined && only !== undefined) {
          // One item per ID: each new or changed one set, each ID AWS has and the spec lacks removed.
          const [, codec] = codecOf(generated.codecs, only);
          // A map of documents (IAM's inline policies) compares each value as a document.
          const valueForm = formOf.get(only)?.form === "documents" ? "document" : "value";
          const want = withoutItemDefaults(desired)[only];
          const writes = itemWrites(itemsForm(codec), items, codec, want, observed.fields[only], valueForm);
          // Removed first: AWS may hold only so many (CloudWatch Logs: two filters per log group).
          for (const id of writes.remove) {
            const call = group.remove ?? "";
            await calls.send(ctx, call, name, run(client, call, { [items.id]: id, ...naming(call) }), {
              field: fieldPaths,
            });
          }
          for (const input of writes.put) await setCall(group.set, input, fieldPaths);
          continue;
        }
        const none = fields.every((f) => isNone(f, desired));
        // What AWS means by none, where it has no call to remove the group (S3's accelerate Suspended).
        if (none && group.remove === undefined && as?.noneAs !== undefined) {
          await setCall(group.set, { ...as.noneAs }, fieldPaths);
          continue;
        }
        // Left out of the spec (or none), with a call of its own that removes it: removed, never "set" empty.
        const remove = group.remove;
        if (remove !== undefined && none) {
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
        // A group is set whole: its call takes (and some calls require) every one of its fields, a
        // field left out as what its absence means (its default: ECR's MUTABLE); a group of one
        // field may have its own inputs (the kind's setInputs).
        const whole = { ...desired };
        for (const rule of group.fields) whole[rule.field] ??= defaultWhenAbsent(rule);
        const inputs =
          fields.length === 1 && only !== undefined && hooks?.setInputs?.[only] !== undefined
            ? inputsOf(only, group.set)
            : [awsMembers(generated.codecs, whole, fields)];
        for (const input of inputs) await setCall(group.set, input, fieldPaths);
      }
      return changed.map((f) => `spec.${f}`);
    },

    ...(runtime.appliedAtOnce === true
      ? {
          // AWS applies each set call at once (S3): what it holds after an update is what was sent.
          afterUpdate(
            desired: Fields,
            observed: DeclaredObserved,
            ownerTags: Readonly<Record<string, string>>,
          ) {
            const fields = { ...observed.fields };
            let tags = observed.tags;
            for (const { field } of diff(desired, observed.fields)) {
              const applied = hooks?.afterApplying?.[field];
              if (applied !== undefined) withFields(fields, applied(desired, observed.fields));
              else if (field === tagsField) {
                tags = tagShape.withOwner(desired[tagsField], ownerTags);
                withFields(fields, { [tagsField]: tagShape.specFromAws(tagShape.listToAws(tags)) });
              } else if (desired[field] === undefined && lateInitialized.has(field)) continue;
              else withFields(fields, { [field]: isNone(field, desired) ? undefined : desired[field] });
            }
            return { ...observed, fields, tags };
          },
        }
      : {}),
    ...(hooks?.createdAt === undefined
      ? {}
      : {
          createdAt: (client: DeclaredClient<Sdk>, spec: Fields, ctx: CallContext) =>
            hooks.createdAt?.(nameOf(spec), askFor(client, nameOf(spec), ctx)) ?? Promise.resolve(undefined),
        }),
    claim: (client, observed, ownerTags, ctx) => {
      // AWS cannot tag it: whose it is, the controller records (untaggable).
      if (tagging === undefined) return Promise.resolve();
      const target = tagTarget(observed);
      if (runtime.tags?.replace === true) {
        // The whole set is written: what the object has, but crossrole's earlier ownership keys.
        const kept = { ...observed.tags };
        for (const key of legacyOwnershipKeysIn(kept)) delete kept[key];
        return tagging
          .replace(client, nameOf(observed.fields), target, { ...kept, ...ownerTags }, ctx)
          .then(() => undefined);
      }
      return target === ""
        ? Promise.resolve()
        : claimTags(observed.tags, ownerTags, tagging.writes(client, nameOf(observed.fields), target, ctx));
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
      const address = await addressOf(client, spec, ctx, true);
      if (address === undefined) return "not-found";
      // Items AWS will not delete the object with (IAM's policies of a role): each removed first.
      for (const set of runtime.emptiedBeforeDelete ?? []) {
        const g = declared(set);
        const own = groupReads.get(g?.read ?? "");
        const items = own?.items;
        const remove = g?.remove;
        // Generation checked it is a group of items with a remove call (object-address.ts).
        if (g === undefined || own === undefined || items === undefined || remove === undefined) continue;
        const arn = arnOf({}, name, client.region, client.account);
        // Their IDs are enough: no item's own read.
        const { get: _, ...listOnly } = items;
        const answer = await groupRead(
          client,
          name,
          g.read,
          { ...own, items: listOnly },
          callNaming(g.read, address, arn),
          ctx,
        );
        if (answer === gone) return "not-found";
        const listed = ((answer as Fields | undefined)?.[items.list] as unknown[] | undefined) ?? [];
        for (const id of listed.map((i) => listedId(i, items))) {
          await calls.send(
            ctx,
            remove,
            name,
            run(client, remove, { [items.id]: id, ...callNaming(remove, address, arn) }),
            { field: own.fields.map((f) => `spec.${f}`).join(", ") },
          );
        }
      }
      // What else must go first (a policy's versions other than the default).
      await hooks?.beforeDelete?.(askFor(client, name, ctx), naming(addressed.delete.by, address));
      const first = hooks?.deleteFirst;
      if (first !== undefined) {
        // What must go before the object (a global table's replicas elsewhere): read it first.
        const answer = await readCall(client, name, address, ctx);
        const item = objectOf(answer, name);
        if (item === undefined) return "not-found";
        const before = first(item, { region: client.region });
        if (before !== undefined) {
          const states = addressed.states;
          if (states === undefined || heldBy(states, item) === undefined) {
            const arn = arnOf(item, name, client.region);
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
        // Refused for its state (RDS's InvalidDBInstanceState; a secret already scheduled for
        // deletion): gone meanwhile, or already going, is done.
        const states = addressed.states;
        const forState = states?.busyCodes?.includes(err instanceof ErrorClass ? err.code : "") === true;
        if (!(err instanceof ErrorClass) || (!forState && runtime.goneWhen === undefined)) throw err;
        const item = objectOf(await readCall(client, name, address, ctx), name);
        if (item === undefined || beingDeleted(item)) return "not-found";
        const going = states?.deleting ?? [];
        if (states !== undefined && membersOf(states).some((m) => going.includes(String(item[m]))))
          return "deleted";
        throw err;
      }
    },

    diff: (desired, observed) => pathsOf(diff(desired, observed.fields)),
    lateInitialize(spec, observed) {
      // A field whose absence has a meaning (DynamoDB's billing mode: PROVISIONED) gets that
      // meaning; another gets AWS's value, else what AWS's silence means.
      const r = lateInitializeFields(spec, generated.declared.lateInitialized, (f) => {
        const rule = formOf.get(f);
        return defaultWhenAbsent(rule) ?? observed.fields[f] ?? rule?.default;
      });
      return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
    },
    specFromObserved(observed, spec) {
      const fields = { ...observed.fields };
      if (tagsField !== undefined) delete fields[tagsField];
      // An ID AWS assigned is status's, never the spec's.
      if (assignedId !== undefined) delete fields[idField];
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
      Object.assign(fields, kindSecrets.keptFrom(spec as Fields));
      return adoptedSpec(
        hooks?.adoptedFields?.(fields, spec as Fields) ?? fields,
        tagsField ?? "",
        tagShape.user(observed.tags),
        spec as Fields & { identityRef?: unknown },
      );
    },
    arn: (spec, region, account) =>
      placeless || runtime.arnScope === "regional" || runtime.arnScope === "account"
        ? arnOf(spec as Fields, nameOf(spec), region, account)
        : regionalArn(declaration.service, region, account, `${runtime.arnResource}${nameOf(spec)}`),
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
    ...(runtime.answeredArn === true
      ? { answeredArn: (observed: DeclaredObserved) => (observed.arn === "" ? undefined : observed.arn) }
      : {}),
    // Only an ARN of the kind's own (RDS answers a snapshot's in other places).
    observedRegion: (observed) => {
      if (observed.region !== undefined) return observed.region;
      const parts = parseRegionalArn(observed.arn, declaration.service);
      // An ARN naming no region (IAM's): the object is in none, so never in another.
      if (parts === undefined || parts.region === "") return undefined;
      return parts.resource.join(":").startsWith(runtime.arnResource) ? parts.region : undefined;
    },
    ...errorReporting(
      (err: unknown): err is InstanceType<typeof ErrorClass> => err instanceof ErrorClass,
      (err, spec: Fields) => classify(err, { operation: runtime.read.call, name: nameOf(spec) }),
    ),
  };
}

/** Sets `value` at a dotted path of `input`, making the objects on the way. */
function atPath(input: Fields, path: string, value: unknown): void {
  const keys = path.split(".");
  const last = keys.pop() ?? path;
  let at = input;
  for (const key of keys) {
    const next = (at[key] ?? {}) as Fields;
    at[key] = { ...next };
    at = at[key] as Fields;
  }
  at[last] = value;
}
