// How each call of a kind served by the generic runtime names the one AWS object it is about,
// read from the AWS model rather than assumed: the identifier goes into the input member of that
// name (RDS's DescribeDBSubnetGroups takes DBSubnetGroupName), or into a list of identifiers
// (ECR's DescribeRepositories takes repositoryNames: [name]); and a read answer names the objects
// it lists by a member of that name, so the runtime keeps only the object whose identifier is the
// resource's — never "the first of the list" (a read that sent a member the call does not have
// would have the SDK drop it, and AWS list every object). A call the model gives no such member
// fails generation, naming it: the kind must say how in a hook. Pure.
import { type AwsModel, type AwsShape, inputOf, outputOf, shapeOf } from "./aws-model.ts";
import type { KindDeclaration, RuntimeDeclaration } from "./declaration.ts";

/**
 * Where a call's input takes the identifier: as the member itself, or in a list of them; or, for a
 * call that takes no identifier, the object's ARN as the read answered it (runtime.arnInput).
 */
export interface Address {
  readonly member: string;
  /** `none`: the call names no object (a list of every one, kept only where the identifier is the resource's). */
  readonly form: "scalar" | "list" | "arn" | "none";
}

/** The runtime's calls, each with how it names the object. */
export interface ResolvedRuntime {
  readonly read: {
    readonly call: string;
    readonly by: Address;
    /** The answer's member holding the object (or the list of objects) read. */
    readonly answers: string;
    /** Whether that member is a list (kept only where an item's identifier is the resource's). */
    readonly list: boolean;
    /** The member of an answered object holding its identifier. */
    readonly id: string;
    /** The whole answer is the object (RuntimeDeclaration.read.output absent). */
    readonly whole?: true;
    /** The answer is paged: the token it gives and the next call takes, until the object is found. */
    readonly page?: { readonly input: string; readonly output: string };
  };
  /** The variants' reads (RuntimeDeclaration.variants), checked against the model. */
  readonly variants?: Readonly<Record<string, { readonly read: ResolvedRuntime["read"] }>>;
  readonly delete: { readonly call: string; readonly by: Address };
  /** Every call but the create takes the object's ARN, composed by crossrole (RuntimeDeclaration.byArn). */
  readonly byArn?: true;
  /**
   * Where an attribute map's set call takes one attribute as a name and a value (SNS's
   * SetTopicAttributes) rather than a map of them (SQS's SetQueueAttributes).
   */
  readonly attributePair?: { readonly name: string; readonly value: string };
  /** The call giving the handle every other call takes (RuntimeDeclaration.locate). */
  readonly locate?: { readonly call: string; readonly by: Address; readonly handle: string };
  /** Input the read call takes beyond the address. */
  readonly readInput?: Readonly<Record<string, unknown>>;
  /** The field groups' calls that name the object by its identifier (not its ARN), by call. */
  readonly calls: Readonly<Record<string, Address>>;
  /** Whether AWS matches identifiers ignoring case. */
  readonly caseInsensitive: boolean;
  /** Whether AWS also stores them lower-cased (RDS's instances): calls name the object so. */
  readonly lowercase?: true;
  /** The tag read is paginated: the answer's member sent back as the input's until there is none. */
  readonly tagsPage?: { readonly input: string; readonly output: string };
  /** The declared long-running states, their member checked against the read answer. */
  readonly states?: NonNullable<RuntimeDeclaration["states"]>;
  /** The untag call takes tags, not keys (EC2's DeleteTags): each key goes as an item's member of this name. */
  readonly untagItem?: string;
}

/** The identifier's member and shape, as the create call's input has it. */
function identifierShape(decl: KindDeclaration, model: AwsModel): string {
  // An ID AWS assigns (runtime.assigned) is no create input: the delete call takes it (a read may
  // take only a list of them: EC2's DescribeVpcs).
  const taking = decl.runtime?.assigned === undefined ? decl.create : decl.runtime.delete;
  const member = inputOf(model, taking).members?.[decl.identifier];
  if (member === undefined)
    throw new Error(`${decl.kind}'s declaration: the call ${taking} takes no ${decl.identifier}`);
  return member.shape;
}

/**
 * Where `operation` takes the identifier: a string member of the identifier's name, else the one
 * list member whose items have the identifier's shape; undefined when the model has neither.
 */
export function addressIn(
  model: AwsModel,
  operation: string,
  identifier: { readonly member: string; readonly shape: string },
): Address | undefined {
  const members = inputOf(model, operation).members ?? {};
  const direct = members[identifier.member];
  if (direct !== undefined && shapeOf(model, direct.shape).type === "string") {
    return { member: identifier.member, form: "scalar" };
  }
  const lists = Object.entries(members).filter(([, m]) => {
    const s: AwsShape = shapeOf(model, m.shape);
    return s.type === "list" && s.member?.shape === identifier.shape;
  });
  const [only] = lists;
  return lists.length === 1 && only !== undefined ? { member: only[0], form: "list" } : undefined;
}

/** The runtime's calls with their addresses, or an error naming the call the model cannot address. */
export function resolveRuntime(
  decl: KindDeclaration & { readonly runtime: RuntimeDeclaration },
  model: AwsModel,
  /** Another service's model, where a variant's tags are that service's (S3 Control's). */
  modelOf: (service: string) => AwsModel = () => model,
): ResolvedRuntime {
  const fail = (what: string): never => {
    throw new Error(`${decl.kind}'s declaration: ${what}`);
  };
  const r = decl.runtime;
  const identifier = { member: decl.identifier, shape: identifierShape(decl, model) };
  const byArnInput = (call: string): Address | undefined => {
    const members = inputOf(model, call).members ?? {};
    const [only, more] = (r.arnInput ?? []).filter((m) => members[m] !== undefined);
    return only === undefined || more !== undefined ? undefined : { member: only, form: "arn" };
  };
  const byName = (call: string, role: string): Address =>
    addressIn(model, call, identifier) ??
    byArnInput(call) ??
    fail(
      `the ${role} call ${call} takes no ${decl.identifier} (nor a list of them, nor one of runtime.arnInput): the runtime cannot name the object to it; give the kind a hook for that call's input`,
    );
  const located = r.locate;
  // With a handle (runtime.locate), every call but the locating one takes the handle instead.
  const byHandle = (call: string, role: string): Address => {
    const handle = located?.handle ?? "";
    const member = inputOf(model, call).members?.[handle];
    if (member === undefined || shapeOf(model, member.shape).type !== "string")
      return fail(`the ${role} call ${call} takes no ${handle}, the handle ${located?.call} gives`);
    return { member: handle, form: "scalar" };
  };
  // Addressed by its ARN (runtime.byArn), every call takes it in the one of those members it has.
  const byArn = (call: string, role: string): Address => {
    const members = inputOf(model, call).members ?? {};
    const taking = (r.byArn ?? []).filter((m) => {
      const member = members[m];
      return member !== undefined && shapeOf(model, member.shape).type === "string";
    });
    const [only] = taking;
    if (taking.length !== 1 || only === undefined)
      return fail(
        `the ${role} call ${call} takes ${taking.length === 0 ? "none" : "more than one"} of ${r.byArn?.join(", ")} (runtime.byArn)`,
      );
    return { member: only, form: "scalar" };
  };
  if (located !== undefined && r.byArn !== undefined)
    fail("runtime.locate and runtime.byArn exclude each other");
  const address = located !== undefined ? byHandle : r.byArn !== undefined ? byArn : byName;
  // A read naming the object in a member of the declaration's choice: a string, or a list of them.
  const declaredReadAddress = (member: string): Address => {
    if (located !== undefined || r.byArn !== undefined)
      fail("runtime.read.by names the object by its identifier: not with runtime.locate or runtime.byArn");
    const m = inputOf(model, r.read.call).members?.[member];
    const s = m === undefined ? undefined : shapeOf(model, m.shape);
    const items = s?.type === "list" ? shapeOf(model, s.member?.shape ?? "") : undefined;
    if (s?.type === "string") return { member, form: "scalar" };
    if (items?.type === "string") return { member, form: "list" };
    return fail(
      `the read call ${r.read.call} takes no string or list of strings ${member} (runtime.read.by)`,
    );
  };
  /** How the read call names the object: as the declaration says, by no member (`every`), else as the model does. */
  const readAddress = (): Address => {
    if (r.read.every === true) {
      if (r.read.by !== undefined) fail("runtime.read.every names no object: not with runtime.read.by");
      return { member: "", form: "none" };
    }
    return r.read.by === undefined ? address(r.read.call, "read") : declaredReadAddress(r.read.by);
  };
  if (located !== undefined && outputOf(model, located.call).members?.[located.handle] === undefined)
    fail(`the locating call ${located.call} answers no ${located.handle}`);
  const output = outputOf(model, r.read.call);
  const whole = r.read.output === undefined;
  const answered = whole ? undefined : output.members?.[r.read.output ?? ""];
  if (!whole && answered === undefined)
    return fail(`the read call ${r.read.call} answers no member ${r.read.output}`);
  const shape = answered === undefined ? output : shapeOf(model, answered.shape);
  const list = shape.type === "list";
  const item = list ? shapeOf(model, shape.member?.shape ?? "") : shape;
  const byIdentifier = located === undefined && r.byArn === undefined;
  // A whole answer is about the one object the call named: no identifier to match.
  const id = byIdentifier && !whole ? (r.read.answerId ?? decl.identifier) : "";
  if (byIdentifier && !whole && item.members?.[id] === undefined)
    fail(
      `the objects ${r.read.call} answers in ${r.read.output} have no member ${id}: say which names them (runtime.read.answerId)`,
    );
  // Tags are the tags group's, named by the object's ARN (runtime.tags.resource): not here.
  const tagGroup = decl.groups.find((g) => Object.values(g.fields).some((f) => f.form === "tags"));
  // Tag calls naming the object by its identifier in their declared member (EC2's CreateTags takes
  // `Resources`, a list of any resource's ID): a string, or a list the ID goes alone in.
  const tagAddress = (call: string, role: string): Address => {
    const direct = addressIn(model, call, identifier);
    if (direct !== undefined) return direct;
    const resource = r.tags?.resource ?? "";
    const member = inputOf(model, call).members?.[resource];
    const s = member === undefined ? undefined : shapeOf(model, member.shape);
    if (s?.type === "string") return { member: resource, form: "scalar" };
    if (s?.type === "list" && shapeOf(model, s.member?.shape ?? "").type === "string")
      return { member: resource, form: "list" };
    return fail(
      `the tag ${role} call ${call} takes no ${decl.identifier} and no ${resource} (runtime.tags.resource)`,
    );
  };
  const calls: Record<string, Address> = {};
  for (const g of decl.groups) {
    if (g === tagGroup && r.tags?.by !== "identifier") continue;
    for (const [call, role] of [
      // A group the kind writes itself (byHook): its set and remove calls are the hook's.
      ...(g.byHook === true ? [] : [[g.set, "set"] as const]),
      [g.read, "read"],
      ...(g.remove === undefined || g.byHook === true ? [] : [[g.remove, "remove"] as const]),
      ...(g.items?.get === undefined ? [] : [[g.items.get, "read"] as const]),
    ] as const) {
      calls[call] =
        call === r.read.call && (r.read.by !== undefined || r.read.every === true)
          ? readAddress()
          : g === tagGroup && call !== r.read.call
            ? tagAddress(call, role)
            : address(call, role);
    }
  }
  // The untag call's keys member: keys, or tags naming them (EC2's DeleteTags: `Tags: [{Key}]`).
  const untagKeys =
    tagGroup?.remove === undefined
      ? undefined
      : inputOf(model, tagGroup.remove).members?.[r.tags?.keys ?? ""];
  const untagList = untagKeys === undefined ? undefined : shapeOf(model, untagKeys.shape);
  const untagEntry = untagList?.type === "list" ? shapeOf(model, untagList.member?.shape ?? "") : undefined;
  const untagItem =
    untagEntry?.type === "structure"
      ? (["Key", "TagKey", "key"].find((m) => untagEntry.members?.[m] !== undefined) ??
        fail(`the untag call ${tagGroup?.remove} takes tags in ${r.tags?.keys} with no key member`))
      : undefined;
  // A paginated tag read: a token the answer gives and the next call takes.
  const tagRead = tagGroup?.read;
  const paged =
    tagRead !== undefined &&
    inputOf(model, tagRead).members?.["NextToken"] !== undefined &&
    outputOf(model, tagRead).members?.["NextToken"] !== undefined;
  for (const [call, member] of Object.entries(r.objectIn ?? {})) {
    if (member !== "" && outputOf(model, call).members?.[member] === undefined)
      fail(`the call ${call} answers no ${member} (runtime.objectIn)`);
  }
  // An attribute map's set call that takes one attribute by name and value.
  const pairs = decl.groups.filter((g) => {
    const members = inputOf(model, g.set).members ?? {};
    return members["AttributeName"] !== undefined && members["AttributeValue"] !== undefined;
  });
  // What the read answer is declared to hold: the tags, pending values, fields under other members.
  for (const member of r.read.beside ?? []) {
    if (output.members?.[member] === undefined)
      fail(`the read call ${r.read.call} answers no ${member} (runtime.read.beside)`);
  }
  const itemHas = (path: string, what: string) => {
    const head = /^[A-Za-z0-9]+/.exec(path)?.[0] ?? "";
    if (item.members?.[head] === undefined && r.read.beside?.includes(head) !== true)
      fail(`the objects ${r.read.call} answers have no member ${head} (${what})`);
  };
  if (r.tags?.inAnswer !== undefined) itemHas(r.tags.inAnswer, "runtime.tags.inAnswer");
  if (r.goneWhen !== undefined) itemHas(r.goneWhen, "runtime.goneWhen");
  if (r.read.pending !== undefined) itemHas(r.read.pending.member, "runtime.read.pending");
  for (const [field, at] of Object.entries(r.read.members ?? {})) {
    if (at !== null) itemHas(typeof at === "string" ? at : at.present, `runtime.read.members.${field}`);
  }
  // A group sending only its changed fields: every member it sends is one its set call takes.
  for (const g of decl.groups.filter((g) => g.send === "changed")) {
    const takes = inputOf(model, g.set).members ?? {};
    const sent = [
      ...Object.keys(g.input ?? {}),
      ...Object.entries(g.fields).flatMap(([aws, rule]) => [
        rule.change?.member ?? rule.setAs ?? aws,
        ...Object.keys(rule.with?.input ?? {}),
        ...(rule.with?.fields ?? []),
        ...Object.keys(rule.removedAs ?? {}),
      ]),
      ...(g.secrets ?? []),
    ];
    for (const member of sent) {
      if (takes[member] === undefined) fail(`the set call ${g.set} takes no ${member}`);
    }
  }
  // The members declared beside the calls are members of those calls.
  const takes = (call: string, member: string, what: string) => {
    if (inputOf(model, call).members?.[member] === undefined)
      fail(`the call ${call} takes no ${member} (${what})`);
  };
  const answers = (call: string, member: string, what: string) => {
    if (outputOf(model, call).members?.[member] === undefined)
      fail(`the call ${call} answers no ${member} (${what})`);
  };
  if (r.tags?.specification !== undefined)
    takes(decl.create, "TagSpecifications", "runtime.tags.specification");
  for (const g of decl.groups) {
    for (const [field, each] of Object.entries(g.readEach ?? {})) {
      if (g.fields[field] === undefined) fail(`readEach names ${field}, no field of the ${g.set} group`);
      for (const member of Object.keys(each)) takes(g.read, member, `readEach.${field}`);
    }
    for (const [field, at] of Object.entries(g.setAt ?? {})) {
      if (g.fields[field] === undefined) fail(`setAt names ${field}, no field of the ${g.set} group`);
      takes(g.set, /^[A-Za-z0-9]+/.exec(at)?.[0] ?? "", `setAt.${field}`);
    }
    for (const member of Object.keys(g.noneAs ?? {})) takes(g.set, member, "noneAs");
    for (const member of Object.keys(g.input ?? {})) takes(g.set, member, "input");
    for (const member of Object.keys(g.readWith ?? {})) takes(g.read, member, "readWith");
    // A group read taking members of the object's answer (a policy's default version), and where
    // its answer holds a field: each a member of those calls and that answer.
    for (const [member, from] of Object.entries(g.readInput ?? {})) {
      takes(g.read, member, "readInput");
      itemHas(from, `readInput.${member}`);
    }
    for (const [field, at] of Object.entries(g.readAt ?? {})) {
      if (g.fields[field] === undefined) fail(`readAt names ${field}, no field of the ${g.set} group`);
      answers(g.read, /^[A-Za-z0-9]+/.exec(at)?.[0] ?? "", `readAt.${field}`);
    }
    const items = g.items;
    if (items === undefined) continue;
    for (const member of [items.id, ...(items.member === undefined ? [] : [items.member])])
      takes(g.set, member, "items");
    if (items.value !== undefined) takes(g.set, items.value, "items.value");
    if (items.get !== undefined) {
      takes(items.get, items.id, "items.get");
      answers(items.get, items.value ?? "", "items.value");
    }
    // Without a member the set call takes the item's own members, the defaults' among them.
    for (const member of Object.keys(items.defaults ?? {}))
      if (items.member === undefined) takes(g.set, member, "items.defaults");
    if (g.remove !== undefined) takes(g.remove, items.id, "items.id");
    answers(g.read, items.list, "items.list");
    if (items.page !== undefined) {
      takes(g.read, items.page.input, "items.page.input");
      answers(g.read, items.page.output, "items.page.output");
      if (items.page.more !== undefined) answers(g.read, items.page.more, "items.page.more");
    }
  }
  for (const member of r.notInCreate ?? []) takes(decl.create, member, "runtime.notInCreate");
  for (const set of r.emptiedBeforeDelete ?? []) {
    const g = decl.groups.find((x) => x.set === set);
    if (g?.items === undefined || g.remove === undefined)
      fail(`runtime.emptiedBeforeDelete names ${set}, no group of items with a remove call`);
  }
  if (r.arnPath !== undefined) takes(decl.create, r.arnPath, "runtime.arnPath");
  for (const set of r.afterCreate?.read ?? []) {
    if (!decl.groups.some((g) => g.set === set))
      fail(`runtime.afterCreate.read names ${set}, no group's set call`);
  }
  // The read after a create skips the object's own read: the tags' ARN must be composed, not read.
  if (r.afterCreate !== undefined && r.arnScope === undefined)
    fail(
      "runtime.afterCreate needs an ARN crossrole composes (arnScope global or regional): the object itself is not read",
    );
  // A regional ARN is composed in the client's account (EC2's VPCs answer none).
  if (r.arn === undefined && r.arnScope === undefined)
    fail("runtime.arn is needed unless crossrole composes the ARN (arnScope)");
  // A variant's read lists objects without naming one: each must say which is which.
  const variants = Object.entries(r.variants ?? {}).map(([key, v]) => {
    const listed = outputOf(model, v.read.call).members?.[v.read.output];
    const listShape = listed === undefined ? undefined : shapeOf(model, listed.shape);
    const entry = listShape?.type === "list" ? shapeOf(model, listShape.member?.shape ?? "") : undefined;
    if (entry === undefined)
      return fail(`the variant ${key}'s read ${v.read.call} answers no list ${v.read.output}`);
    for (const member of [v.read.answerId, ...(v.read.region === undefined ? [] : [v.read.region])]) {
      if (entry.members?.[member] === undefined)
        fail(`the objects ${v.read.call} answers in ${v.read.output} have no member ${member}`);
    }
    if (v.read.page !== undefined) {
      takes(v.read.call, v.read.page.input, `variants.${key}.read.page`);
      answers(v.read.call, v.read.page.output, `variants.${key}.read.page`);
    }
    for (const set of v.groups) {
      if (!decl.groups.some((g) => g.set === set))
        fail(`the variant ${key} names ${set}, no group's set call`);
    }
    // Its tag calls are another service's: each takes the ARN and the account, as declared.
    const other = modelOf(v.tags.service);
    const otherTakes = (call: string, member: string) => {
      if (inputOf(other, call).members?.[member] === undefined)
        fail(`${v.tags.service}'s ${call} takes no ${member} (variants.${key}.tags)`);
    };
    for (const call of [v.tags.read, v.tags.set, v.tags.remove]) {
      otherTakes(call, v.tags.resource);
      otherTakes(call, v.tags.account);
    }
    otherTakes(v.tags.set, "Tags");
    otherTakes(v.tags.remove, v.tags.keys);
    if (outputOf(other, v.tags.read).members?.[v.tags.list] === undefined)
      fail(`${v.tags.service}'s ${v.tags.read} answers no ${v.tags.list} (variants.${key}.tags)`);
    const read: ResolvedRuntime["read"] = {
      call: v.read.call,
      by: { member: "", form: "none" },
      answers: v.read.output,
      list: true,
      id: v.read.answerId,
      ...(v.read.page === undefined ? {} : { page: v.read.page }),
    };
    return [key, { read }] as const;
  });
  if (r.read.page !== undefined) {
    takes(r.read.call, r.read.page.input, "runtime.read.page");
    answers(r.read.call, r.read.page.output, "runtime.read.page");
    if (!list) fail(`runtime.read.page: ${r.read.call}'s ${r.read.output} is not a list`);
  }
  if (r.tags === undefined) {
    if (tagGroup !== undefined)
      fail("a kind with a tags group says how its tag calls name it (runtime.tags)");
  } else if (r.tags.keys === undefined && r.tags.replace !== true)
    fail("runtime.tags.keys is needed unless tags.replace");
  // An attribute map (SQS's Attributes) has no members to check the state's against.
  const stateMembers = r.states === undefined ? [] : [r.states.member].flat();
  for (const member of shape.type === "map" ? [] : stateMembers) {
    if (item.members?.[member] === undefined)
      fail(`the objects ${r.read.call} answers have no member ${member} (runtime.states.member)`);
  }
  return {
    read: {
      call: r.read.call,
      by: readAddress(),
      ...(r.read.page === undefined ? {} : { page: r.read.page }),
      answers: r.read.output ?? "",
      list,
      id,
      ...(whole ? { whole: true as const } : {}),
    },
    delete: { call: r.delete, by: address(r.delete, "delete") },
    ...(r.byArn === undefined ? {} : { byArn: true as const }),
    ...(pairs.length === 0 ? {} : { attributePair: { name: "AttributeName", value: "AttributeValue" } }),
    ...(located === undefined
      ? {}
      : { locate: { call: located.call, by: byName(located.call, "locate"), handle: located.handle } }),
    ...(r.read.input === undefined ? {} : { readInput: r.read.input }),
    calls,
    caseInsensitive: r.identifierCase !== undefined,
    ...(r.identifierCase === "lower" ? { lowercase: true as const } : {}),
    ...(paged ? { tagsPage: { input: "NextToken", output: "NextToken" } } : {}),
    ...(r.states === undefined ? {} : { states: r.states }),
    ...(variants.length === 0 ? {} : { variants: Object.fromEntries(variants) }),
    ...(untagItem === undefined ? {} : { untagItem }),
  };
}
