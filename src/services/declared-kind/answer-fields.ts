// What an object AWS answered holds, in spec and status form, as the declaration says where: each
// spec field under its own member (through the codecs), under another one (runtime.read.members),
// in an attribute map, as the kind's `fieldsFromAnswer` hook reads it, or pending
// (runtime.read.pending: a change asked for and not applied yet counts as made); ACK's status
// fields, times in whole seconds. The groups read by calls of their own and the tags are the
// runtime's (module.ts). Pure.
import type { DeclaredField } from "../../codegen/drift-rules.ts";
import { type FieldCodecs, fromAws } from "../shape-codec.ts";
import { stringBoolean } from "../string-boolean.ts";
import { valueAt } from "./answer-paths.ts";
import type { DeclaredKindSource, Fields, SdkClient } from "./source.ts";

/** A spec field's member and codec. */
export function codecOf(codecs: FieldCodecs, field: string) {
  const entry = codecs[field];
  if (entry === undefined) throw new Error(`no codec for spec field ${field}`);
  return entry;
}

/** The spec field whose member is `aws` (the codecs'), or else one of `names` (the generated AWS names). */
export function specFieldOf(
  codecs: FieldCodecs,
  aws: string,
  names: Readonly<Record<string, string>> = {},
): string {
  const found =
    Object.entries(codecs).find(([, [member]]) => member === aws)?.[0] ??
    Object.entries(names).find(([, name]) => name === aws)?.[0];
  if (found === undefined) throw new Error(`${aws} is no spec field's member`);
  return found;
}

/** `fields` with what a hook read: a field it gives as undefined is none. */
export function withFields(fields: Fields, read: Fields): void {
  for (const [field, value] of Object.entries(read)) {
    if (value === undefined) delete fields[field];
    else fields[field] = value;
  }
}

/** How a kind's answered objects read, built once per kind. */
export function answerFields(
  source: Pick<DeclaredKindSource<SdkClient>, "declaration" | "generated" | "hooks">,
) {
  const { generated, hooks } = source;
  const read = source.declaration.runtime.read;
  const tagsField = generated.fieldGroups.groups
    .flatMap((g) => g.fields)
    .find((f) => f.form === "tags")?.field;
  const formOf = new Map<string, DeclaredField>(
    generated.fieldGroups.groups.flatMap((g) => g.fields.map((f) => [f.field, f] as const)),
  );
  const attributes = generated.attributes;
  const field = (aws: string) => specFieldOf(generated.codecs, aws);
  /** Members that hold no field of their own name: their fields are read from elsewhere, or never. */
  const elsewhere = new Set(Object.keys(read.members ?? {}));
  const readElsewhere = Object.entries(read.members ?? {}).flatMap(([aws, at]) =>
    at === null ? [] : [[field(aws), codecOf(generated.codecs, field(aws))[1], at] as const],
  );
  const pending = read.pending;
  const pendingFields = [
    ...(pending?.fields ?? []).map((aws) => [aws, field(aws)] as const),
    ...Object.entries(pending?.renames ?? {}).map(([member, aws]) => [member, field(aws)] as const),
  ];
  /** An attribute's value as the map holds it ("" and absent are none); booleans as ACK's "true"/"false". */
  const attributeFromAws = (f: string, value: unknown): unknown => {
    if (value === undefined || value === "") return undefined;
    return formOf.get(f)?.form === "boolean" ? stringBoolean(String(value)) : value;
  };
  /** Members AWS answers URL-encoded (runtime.urlEncoded: IAM's policy documents), decoded. */
  const encoded = source.declaration.runtime.urlEncoded ?? [];
  const decodedMember = (member: string, value: unknown): unknown =>
    encoded.includes(member) && typeof value === "string" ? decodeURIComponent(value) : value;
  const urlDecoded = (item: Fields): Fields => {
    if (!encoded.some((m) => typeof item[m] === "string")) return item;
    const out = { ...item };
    for (const m of encoded) out[m] = decodedMember(m, out[m]);
    return out;
  };
  return {
    /** A member's value as AWS meant it: URL-decoded where AWS encodes it (runtime.urlEncoded). */
    decodedMember,
    /** The spec fields `item` holds (tags left to the runtime). */
    fieldsOf(answered: Fields): Fields {
      const item = urlDecoded(answered);
      const fields: Fields = {};
      for (const [f, [member, codec]] of Object.entries(generated.codecs)) {
        if (f === tagsField || elsewhere.has(member) || item[member] === undefined) continue;
        fields[f] = fromAws(codec, item[member]);
      }
      for (const [f, codec, at] of readElsewhere) {
        const value =
          typeof at === "string" ? valueAt(item, at) : item[at.present] == null ? undefined : true;
        if (value !== undefined) fields[f] = fromAws(codec, value);
      }
      for (const [f, attribute] of Object.entries(attributes?.fields ?? {})) {
        const value = attributeFromAws(f, item[attribute]);
        if (value !== undefined) fields[f] = value;
      }
      withFields(fields, hooks?.fieldsFromAnswer?.(item) ?? {});
      const pendingItem = pending === undefined ? undefined : (item[pending.member] as Fields | undefined);
      for (const [member, f] of pendingFields) {
        const value = pendingItem?.[member];
        if (value !== undefined && value !== null)
          fields[f] = fromAws(codecOf(generated.codecs, f)[1], value);
      }
      return fields;
    },
    /** ACK's status fields from what AWS answered; times in whole seconds (metav1.Time, as ACK). */
    statusOf(item: Fields): Fields {
      const status: Fields = {};
      for (const [f, [member, codec]] of Object.entries(generated.statusCodecs)) {
        // In an attribute map, "" is no value.
        if (item[member] === undefined || (attributes !== undefined && item[member] === "")) continue;
        status[f] = wholeSeconds(fromAws(codec, item[member]));
      }
      return { ...status, ...source.hooks?.statusFromAnswer?.(item) };
    },
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
