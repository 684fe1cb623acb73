// The spec ⇄ AWS mapping of a kind's generated fields (src/codegen/emit-kind.ts writes each
// field's codec: its AWS member name, and for structures the same for every member). Spec
// names are ACK's (`kmsMasterKeyID`), AWS's are the model's (`KMSMasterKeyId`); timestamps are
// RFC 3339 strings in the spec and Dates in the SDK; blobs base64 in the spec, bytes in the SDK.
// Pure.

/** How one value maps: a structure renames its members; lists and maps map their items. */
export interface Codec {
  readonly object?: Readonly<Record<string, readonly [aws: string, codec: Codec]>>;
  readonly list?: Codec;
  readonly map?: Codec;
  readonly timestamp?: true;
  readonly blob?: true;
}

/** A kind's top-level fields: spec name → [AWS name, codec]. */
export type FieldCodecs = Readonly<Record<string, readonly [aws: string, codec: Codec]>>;

/** A spec value as the SDK's input wants it. */
export function toAws(codec: Codec, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (codec.timestamp) return typeof value === "string" ? new Date(value) : value;
  if (codec.blob) return typeof value === "string" ? Buffer.from(value, "base64") : value;
  if (codec.list && Array.isArray(value)) return value.map((v) => toAws(codec.list as Codec, v));
  if (codec.map && isRecord(value)) return mapValues(value, (v) => toAws(codec.map as Codec, v));
  if (codec.object && isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [name, [aws, inner]] of Object.entries(codec.object)) {
      const v = toAws(inner, value[name]);
      if (v !== undefined) out[aws] = v;
    }
    return out;
  }
  return value;
}

/**
 * An SDK output value in spec form. Members the codec does not know (newer than the model the
 * kind was generated from) are dropped, as are absent ones: what comes back compares with a
 * spec field for field.
 */
export function fromAws(codec: Codec, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (codec.timestamp) return value instanceof Date ? value.toISOString().replace(/\.000Z$/, "Z") : value;
  if (codec.blob) return value instanceof Uint8Array ? Buffer.from(value).toString("base64") : value;
  if (codec.list && Array.isArray(value)) return value.map((v) => fromAws(codec.list as Codec, v));
  if (codec.map && isRecord(value)) return mapValues(value, (v) => fromAws(codec.map as Codec, v));
  if (codec.object && isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [name, [aws, inner]] of Object.entries(codec.object)) {
      const v = fromAws(inner, value[aws]);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
  return value;
}

/** The SDK input members for the spec's fields `names` (absent ones left out). */
export function awsMembers(
  codecs: FieldCodecs,
  spec: Readonly<Record<string, unknown>>,
  names: readonly string[],
) {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const entry = codecs[name];
    if (entry === undefined) throw new Error(`no codec for spec field ${name}`);
    const v = toAws(entry[1], spec[name]);
    if (v !== undefined) out[entry[0]] = v;
  }
  return out;
}

/** The spec fields `names` from an SDK output structure (absent ones left out). */
export function specMembers(
  codecs: FieldCodecs,
  aws: Readonly<Record<string, unknown>>,
  names: readonly string[],
) {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const entry = codecs[name];
    if (entry === undefined) throw new Error(`no codec for spec field ${name}`);
    const v = fromAws(entry[1], aws[entry[0]]);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof Uint8Array)
  );
}

function mapValues(v: Record<string, unknown>, f: (x: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)]));
}
