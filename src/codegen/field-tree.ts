// A kind's spec fields as a tree read from the AWS API model: for every field its spec name
// (ACK's), its AWS name, its JSON type and shape, its description and AWS's constraints. The
// emitters (emit-kind.ts) turn the tree into the zod schema the CRD is generated from and into
// the table the spec⇄AWS mapping walks. Pure: the model is passed in.
import { ackFieldName } from "./ack-names.ts";
import { type AwsMember, type AwsModel, type AwsShape, shapeOf } from "./aws-model.ts";
import type {
  AttributesSource,
  CustomSource,
  KindDeclaration,
  MembersSource,
  ShapeSource,
  SpecSource,
} from "./declaration.ts";
import { firstParagraph, namedListEntries } from "./documentation.ts";

export type FieldType =
  | {
      readonly t: "string";
      readonly enum?: readonly string[];
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly format?: "date-time" | "byte";
    }
  | { readonly t: "integer"; readonly minimum?: number; readonly maximum?: number }
  | { readonly t: "number" }
  | { readonly t: "boolean" }
  | { readonly t: "list"; readonly item: FieldType; readonly minItems?: number; readonly maxItems?: number }
  | { readonly t: "map"; readonly value: FieldType }
  | { readonly t: "object"; readonly shape: string; readonly fields: readonly Field[] }
  /** ACK's `{from: {name, namespace}}` to another kind's resource (one, or a list of them). */
  | {
      readonly t: "reference";
      readonly service: string;
      readonly kind: string;
      readonly many: boolean;
      /** The model requires the plain field: one of the two must be set. */
      readonly plainRequired?: boolean;
      /** The plain field takes the referenced object's ARN (ReferenceDeclaration.fills). */
      readonly arn?: boolean;
      /** The plain field takes this field of the referenced resource's spec (ReferenceDeclaration.fills). */
      readonly fromSpec?: string;
      /** Needed only after the create (ReferenceDeclaration.afterCreate). */
      readonly afterCreate?: boolean;
    }
  /** A key of a Secret in the resource's namespace (ACK's SecretKeyReference), never the value. */
  | { readonly t: "secret" };

export interface Field {
  /** The spec name (ACK's). */
  readonly name: string;
  /** The AWS member or attribute name. */
  readonly aws: string;
  readonly doc: string;
  readonly type: FieldType;
  readonly required: boolean;
  /** A key of a string-valued attribute map (SQS, SNS), not a member of a structure. */
  readonly attribute?: boolean;
  /** Where a top-level field lives in the model (`CreateQueueRequest.Attributes["DelaySeconds"]`), for the docs. */
  readonly source?: string;
  /**
   * The set call's member for a field taken from one (`PutBucketVersioning.VersioningConfiguration`):
   * what the codec sends it as, where not its AWS name.
   */
  readonly member?: string;
}

/** The spec fields a declaration gives, in order, from the model. */
export function specFields(decl: KindDeclaration, model: AwsModel): Field[] {
  const fields: Field[] = [];
  // Renames are keyed by the AWS path from the spec's root (lists are transparent).
  const named: Named = (awsPath) =>
    decl.renames?.[awsPath] ?? ackFieldName(awsPath.split(".").at(-1) ?? awsPath);
  // A custom member of a structure another source gives (Code.SHA256) is added at its path.
  const nested = (s: SpecSource): s is CustomSource => "custom" in s && s.field.includes(".");
  for (const source of decl.spec) if (!nested(source)) fields.push(...fieldsOfSource(source, model, named));
  let withNested = fields;
  for (const source of decl.spec.filter(nested)) {
    const parent = source.field.slice(0, source.field.lastIndexOf("."));
    const member = source.field.slice(parent.length + 1);
    const inner = { ...customField(source, named), aws: member };
    withNested = atPath(withNested, parent, decl.kind, (f) => {
      if (f.type.t !== "object")
        throw new Error(`${decl.kind}: ${parent} is no structure to add ${member} to`);
      return [{ ...f, type: { ...f.type, fields: [...f.type.fields, inner] } }];
    });
  }
  let noted = withNested;
  for (const [path, note] of Object.entries(decl.notes ?? {})) {
    noted = atPath(noted, path, decl.kind, (f) => [
      { ...f, doc: f.doc.length > 0 ? `${f.doc} ${note}` : note },
    ]);
  }
  let withSecrets = noted;
  for (const secret of decl.secrets ?? [])
    withSecrets = atPath(withSecrets, secret, decl.kind, (f) => [{ ...f, type: { t: "secret" } }]);
  let withRefs = withSecrets;
  for (const ref of decl.references ?? []) {
    withRefs = atPath(withRefs, ref.field, decl.kind, (target) => {
      const many = target.type.t === "list";
      return [
        // As in ACK, a field a reference may stand for is not required: one of the two is set.
        { ...target, required: false },
        {
          name: referenceFieldName(target.name, many),
          aws: target.aws,
          doc: `A reference to the ${ref.service}.services.k8s.aws ${ref.kind} whose identifier fills ${target.name}: set one of the two.`,
          type: {
            t: "reference",
            service: ref.service,
            kind: ref.kind,
            many,
            ...(target.required ? { plainRequired: true } : {}),
            ...(ref.fills === "arn" ? { arn: true } : {}),
            ...(typeof ref.fills === "object" ? { fromSpec: ref.fills.spec } : {}),
            ...(ref.afterCreate === true ? { afterCreate: true } : {}),
          },
          required: false,
        },
      ];
    });
  }
  assertUniqueNames(withRefs, decl.kind, "spec");
  return withRefs;
}

type Named = (awsPath: string) => string;

/**
 * The status fields a declaration gives (its `status`), from the model: ACK's names, AWS's
 * documentation, the model's JSON types without its constraints (enums, lengths, ranges), since
 * status records whatever AWS reports. None is required.
 */
export function statusFields(decl: KindDeclaration, model: AwsModel): Field[] {
  const status = decl.status;
  if (status === undefined) return [];
  const named: Named = (awsPath) =>
    status.renames?.[awsPath] ?? ackFieldName(awsPath.split(".").at(-1) ?? awsPath);
  const fields = membersOf({ members: status.from, only: status.only }, model, named).map((f) => ({
    ...f,
    type: unconstrained(f.type),
    required: false,
  }));
  assertUniqueNames(fields, decl.kind, "status");
  return fields;
}

/** A type without AWS's constraints on values: what it is, not what AWS accepts as input. */
function unconstrained(t: FieldType): FieldType {
  switch (t.t) {
    case "string":
      return t.format === undefined ? { t: "string" } : { t: "string", format: t.format };
    case "integer":
      return { t: "integer" };
    case "list":
      return { t: "list", item: unconstrained(t.item) };
    case "map":
      return { t: "map", value: unconstrained(t.value) };
    case "object":
      return { ...t, fields: t.fields.map((f) => ({ ...f, type: unconstrained(f.type) })) };
    default:
      return t;
  }
}

/** Replaces the field at a dotted AWS path (`Replication.Role`) with what `change` makes of it. */
function atPath(
  fields: readonly Field[],
  path: string,
  kind: string,
  change: (f: Field) => Field[],
): Field[] {
  const [head, ...rest] = path.split(".");
  const i = fields.findIndex((f) => f.aws === head);
  const found = fields[i];
  if (found === undefined) throw new Error(`${kind}: the declaration names ${path}, which is no spec field`);
  if (rest.length === 0) return [...fields.slice(0, i), ...change(found), ...fields.slice(i + 1)];
  const inner = (t: FieldType): FieldType => {
    if (t.t === "list") return { ...t, item: inner(t.item) };
    if (t.t === "object") return { ...t, fields: atPath(t.fields, rest.join("."), kind, change) };
    throw new Error(`${kind}: the declaration names ${path}, but ${head} has no members`);
  };
  return [...fields.slice(0, i), { ...found, type: inner(found.type) }, ...fields.slice(i + 1)];
}

function assertUniqueNames(fields: readonly Field[], kind: string, at: string): void {
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) throw new Error(`${kind}: two fields of ${at} are named ${f.name}; rename one`);
    seen.add(f.name);
  }
}

/** ACK's name for a reference field: `kmsKeyID` → `kmsKeyRef`, `vpcSecurityGroupIDs` → `vpcSecurityGroupRefs`. */
export function referenceFieldName(field: string, many: boolean): string {
  const base = field.replace(/(IDs|ARNs|Names|ID|ARN|Name|Id|Arn)$/, "");
  // A plural without such a suffix is made singular, as ACK does: `policies` → `policyRefs`.
  const one = !many || base !== field ? base : base.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
  return `${one}${many ? "Refs" : "Ref"}`;
}

function fieldsOfSource(source: SpecSource, model: AwsModel, named: Named): Field[] {
  if ("members" in source) return membersOf(source, model, named);
  if ("attributes" in source) return attributesOf(source, model, named);
  if ("custom" in source) return [customField(source, named)];
  return [shapeField(source, model, named)];
}

/** A field the model lacks (CustomSource), of its declared scalar type. */
function customField(source: CustomSource, named: Named): Field {
  return {
    name: named(source.field),
    aws: source.field,
    doc: source.doc,
    type: { t: source.custom },
    required: false,
    source: "an SDK parameter (not in the model)",
  };
}

function membersOf(source: MembersSource, model: AwsModel, named: Named): Field[] {
  const shape = shapeOf(model, source.members);
  const members = Object.entries(shape.members ?? {});
  for (const name of [...(source.only ?? []), ...(source.ignore ?? [])]) {
    if (!members.some(([m]) => m === name))
      throw new Error(`${model.service} ${source.members} has no member ${name}`);
  }
  return members
    .filter(([m]) => (source.only === undefined || source.only.includes(m)) && !source.ignore?.includes(m))
    .map(([aws, member]) => ({
      name: named(aws),
      aws,
      doc: docOf(member, model),
      type: typeOf(model, member.shape, [source.members, aws], aws, named),
      required: shape.required?.includes(aws) ?? false,
      source: `${source.members}.${aws}`,
    }));
}

/** `<Operation or Structure>.<Member>`: an operation stands for its input structure. */
function memberAt(model: AwsModel, path: string): AwsMember {
  const [head, member] = path.split(".");
  const structure = head === undefined ? undefined : (model.operations[head]?.input?.shape ?? head);
  const found =
    structure === undefined || member === undefined ? undefined : shapeOf(model, structure).members?.[member];
  if (found === undefined) throw new Error(`the ${model.service} model has no member ${path}`);
  return found;
}

function shapeField(source: ShapeSource, model: AwsModel, named: Named): Field {
  if ("mapOf" in source) {
    return {
      name: named(source.field),
      aws: source.field,
      doc: source.doc,
      type: { t: "map", value: typeOf(model, source.mapOf, [source.field, "{}"], source.field, named) },
      required: false,
      source: `a map of ${source.mapOf}`,
    };
  }
  if ("listOf" in source) {
    const whole = typeOf(model, source.listOf, [source.field], source.field, named);
    const ignored = source.ignore ?? [];
    for (const aws of ignored) {
      if (whole.t !== "object" || !whole.fields.some((f) => f.aws === aws))
        throw new Error(`${model.service} ${source.listOf} has no member ${aws} to ignore`);
    }
    const item: FieldType =
      whole.t === "object"
        ? { ...whole, fields: whole.fields.filter((f) => !ignored.includes(f.aws)) }
        : whole;
    return {
      name: named(source.field),
      aws: source.field,
      doc: source.doc,
      type: { t: "list", item },
      required: false,
      source: `a list of ${source.listOf}`,
    };
  }
  if (!source.from.includes(".")) {
    // A whole structure (an operation stands for its input).
    const structure = model.operations[source.from]?.input?.shape ?? source.from;
    return {
      name: named(source.field),
      aws: source.field,
      doc: firstParagraph(shapeOf(model, structure).documentation),
      type: typeOf(model, structure, [source.from], source.field, named),
      required: false,
      source: source.from,
    };
  }
  const member = memberAt(model, source.from);
  return {
    name: named(source.field),
    aws: source.field,
    doc: docOf(member, model),
    type: typeOf(model, member.shape, [source.from], source.field, named),
    required: false,
    source: source.from,
    member: source.from.split(".")[1] ?? source.field,
  };
}

function attributesOf(source: AttributesSource, model: AwsModel, named: Named): Field[] {
  const entries = new Map<string, string>();
  for (const path of [source.attributes, ...(source.documentedAlsoBy ?? [])]) {
    for (const [k, v] of namedListEntries(memberAt(model, path).documentation))
      if (!entries.has(k)) entries.set(k, v);
  }
  return source.names.map((aws) => {
    const doc = entries.get(aws);
    if (doc === undefined)
      throw new Error(`${model.service} documents no attribute ${aws} under ${source.attributes}`);
    return {
      name: named(aws),
      aws,
      doc,
      type: { t: "string" },
      required: false,
      attribute: true,
      source: `${source.attributes}["${aws}"]`,
    };
  });
}

function docOf(member: AwsMember, model: AwsModel): string {
  return firstParagraph(member.documentation ?? model.shapes[member.shape]?.documentation);
}

/** The JSON type of a model shape, as ACK maps it (timestamps as RFC 3339 strings, blobs base64). */
function typeOf(
  model: AwsModel,
  shapeName: string,
  path: readonly string[],
  awsPath: string,
  named: Named,
): FieldType {
  const shape: AwsShape = shapeOf(model, shapeName);
  switch (shape.type) {
    case "string":
      return {
        t: "string",
        ...(shape.enum === undefined ? {} : { enum: shape.enum }),
        ...(shape.min === undefined || shape.min <= 0 ? {} : { minLength: shape.min }),
        ...(shape.max === undefined ? {} : { maxLength: shape.max }),
      };
    case "timestamp":
      return { t: "string", format: "date-time" };
    case "blob":
      return { t: "string", format: "byte" };
    case "integer":
    case "long":
      return {
        t: "integer",
        ...(shape.min === undefined ? {} : { minimum: shape.min }),
        ...(shape.max === undefined ? {} : { maximum: shape.max }),
      };
    case "double":
    case "float":
      return { t: "number" };
    case "boolean":
      return { t: "boolean" };
    case "list": {
      if (shape.member === undefined) throw new Error(`${model.service} list ${shapeName} has no member`);
      return {
        t: "list",
        item: typeOf(model, shape.member.shape, [...path, "[]"], awsPath, named),
        ...(shape.min === undefined || shape.min <= 0 ? {} : { minItems: shape.min }),
        ...(shape.max === undefined ? {} : { maxItems: shape.max }),
      };
    }
    case "map": {
      if (shape.value === undefined) throw new Error(`${model.service} map ${shapeName} has no value`);
      return { t: "map", value: typeOf(model, shape.value.shape, [...path, "{}"], awsPath, named) };
    }
    case "structure": {
      // A structure is visited once per branch: the path holds `Shape:` marks of the ones above.
      if (path.includes(`${shapeName}:`)) {
        throw new Error(
          `${model.service} shape ${shapeName} contains itself at ${path.join(".")}: declare the field opaque`,
        );
      }
      const fields = Object.entries(shape.members ?? {}).map(([aws, member]) => ({
        name: named(`${awsPath}.${aws}`),
        aws,
        doc: docOf(member, model),
        type: typeOf(model, member.shape, [...path, `${shapeName}:`, aws], `${awsPath}.${aws}`, named),
        required: false,
      }));
      return { t: "object", shape: shapeName, fields };
    }
  }
}

/**
 * What the declaration says of the spec's fields by AWS name, in spec names: the identifier, the
 * immutable and late-initialised fields (for the kind's generated `<prefix>Declared`).
 */
export function declaredFields(decl: KindDeclaration, fields: readonly Field[]) {
  const specName = (aws: string, what: string): string => {
    const f = fields.find((x) => x.aws === aws && x.type.t !== "reference");
    if (f === undefined)
      throw new Error(`${decl.kind}: the declaration's ${what} names ${aws}, which is no spec field`);
    return f.name;
  };
  return {
    // Named by an ID AWS assigns (runtime.assigned): the status field recording it, which the
    // reconciler gives the runtime's calls beside the spec (never the spec the user writes).
    identifier: decl.runtime?.assigned?.status ?? specName(decl.identifier, "identifier"),
    immutable: (decl.immutable ?? []).map((a) => specName(a, "immutable list")),
    lateInitialized: (decl.lateInitialized ?? []).map((a) => specName(a, "lateInitialized list")),
    terminalCodes: decl.terminalCodes,
  };
}
