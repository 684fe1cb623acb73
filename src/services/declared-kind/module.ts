// A kind served from its declaration alone (CONTRIBUTING.md, "How a kind is made"): the ServiceModule the reconciler drives,
// built from the declaration (its calls: create, the field groups' set and read calls, read,
// delete, tags), the generated module (schemas, codecs, the calls and drift table) and the SDK
// package whose `<Operation>Command` classes make the calls. What a kind adds is its genuine
// quirks, as hooks: spec fields its read answer holds in another shape, compare hooks for the
// fields it declares `custom`. Every promise of the reconciler holds as for the hand-written
// modules: ownership tags in the create call, nothing written to an object not read first.
import type { z } from "zod";
import type { DeclaredFieldGroups } from "../../codegen/drift-rules.ts";
import type { Address } from "../../codegen/object-address.ts";
import { parseRegionalArn, regionalArn } from "../arn.ts";
import type { CallContext, SendOptions } from "../call-context.ts";
import { attributeWhenAbsent, declaredDrift } from "../declared-drift.ts";
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
import { answerFields, codecOf, withFields } from "./answer-fields.ts";
import { changedFieldsInput } from "./changed-input.ts";
import { type CallFailure, declaredKindErrors } from "./errors.ts";
import { declaredKindSchemas } from "./schemas.ts";
import { declaredSecrets } from "./secrets.ts";
import type { DeclaredClient, DeclaredKindSource, DeclaredObserved, Fields, SdkClient } from "./source.ts";
import { heldBy, waitFor } from "./states.ts";
import { tagShapeOf } from "./tag-shape.ts";

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
  /** What the answered objects hold, in spec and status form (answer-fields.ts). */
  const reading = answerFields(source);
  const statusOf = reading.statusOf;
  /** The kind's secrets (runtime.secrets: secrets.ts). */
  const kindSecrets = declaredSecrets(source, (init) => new ErrorClass(init));
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
    ...(kindSecrets.fields.size === 0 ? {} : { secretFields: kindSecrets.references }),

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
      const tagRead = async (): Promise<unknown> =>
        inAnswer !== undefined
          ? item[inAnswer]
          : target === ""
            ? undefined
            : readTags(client, name, target, ctx);
      // Groups read by a call of their own (a repository's lifecycle policy): each read once; `gone`
      // when the object went between the calls.
      const wanted = [...groupReads].filter(
        ([, own]) => own.always || own.fields.some((f) => spec[f] !== undefined),
      );
      const groupRead = async ([call, own]: (typeof wanted)[number]): Promise<unknown> => {
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
        return objectGone ? gone : answer;
      };
      const reads = [tagRead, ...wanted.map((g) => () => groupRead(g))];
      const answers = runtime.read.groupsAtOnce === true ? await allAtOnce(reads) : await inTurn(reads);
      const [awsTags, ...groupAnswers] = answers;
      if (answers.includes(gone) || answers.length < reads.length) return { found: false };
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
          const value = answer?.[member];
          if (value === undefined || value === "") delete fields[field];
          else fields[field] = fromAws(codec, value);
        }
      });
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
      const secretValues = kindSecrets.forCreate(spec, secrets, groups.create, name);
      const input = {
        ...awsMembers(
          generated.codecs,
          spec,
          groups.createFields.filter((f) => f !== tagsField && !isAttribute(f) && !kindSecrets.fields.has(f)),
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
        kindSecrets.carriedIn(sent),
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
        groups.groups.map((g) => [
          g,
          kindSecrets.resent(declared(g.set)?.secrets ?? [], desired, observed.fields, secrets, g.set, name),
        ]),
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
          for (const secret of carried) input[secret.aws] = secret.value;
          const paths = [...differs, ...carried.map((c) => c.field)].map((f) => `spec.${f}`);
          await calls.send(ctx, group.set, name, run(client, group.set, { ...input, ...naming(group.set) }), {
            ...(paths.length === 1 ? { field: paths[0] } : {}),
            fields: paths,
            ...kindSecrets.carriedIn(input),
          });
          changed.push(...differs, ...carried.map((c) => c.field));
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
      Object.assign(fields, kindSecrets.keptFrom(spec as Fields));
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

/** What a read was answered when the object went between its calls. */
const gone = Symbol("gone");

/** Reads one after another, stopping after one that found the object gone (shorter then). */
async function inTurn(reads: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const read of reads) {
    const answer = await read();
    answers.push(answer);
    if (answer === gone) break;
  }
  return answers;
}

/**
 * Reads all at once; the object gone in any is gone, else a failure is the first in their order,
 * whichever AWS answered first.
 */
async function allAtOnce(reads: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(reads.map((read) => read()));
  // The object gone meanwhile says more than another read's failure.
  if (settled.some((r) => r.status === "fulfilled" && r.value === gone)) return [gone];
  const failed = settled.find((r) => r.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
}
