// A field group of items AWS keeps one per ID (FieldGroup.items), in the three forms a spec holds
// them: objects keyed by an ID member (S3's inventory configurations, CloudWatch Logs'
// subscription filters), a list of IDs (IAM's attached policy ARNs), or a map of ID to value
// (IAM's inline policies: name → document). What AWS lists becomes the spec's form, and the
// difference becomes the calls' inputs: each new or changed item set, each ID gone removed. Pure.
import type { FieldGroup } from "../../codegen/declaration.ts";
import type { DriftForm } from "../../codegen/drift-rules.ts";
import { canonicalValue, sameJson } from "../canonical-forms.ts";
import { canonicalForm } from "../declared-drift.ts";
import { type Codec, toAws } from "../shape-codec.ts";

type Fields = Record<string, unknown>;
export type ItemsOf = NonNullable<FieldGroup["items"]>;

/** How the spec holds the group's items, by the field's codec. */
export type ItemsForm = "objects" | "ids" | "map";

export function itemsForm(codec: Codec): ItemsForm {
  if (codec.map !== undefined) return "map";
  return codec.list?.object === undefined ? "ids" : "objects";
}

/** An item's ID as AWS lists it: the item itself (a name), or its ID member. */
export function listedId(item: unknown, items: ItemsOf): string {
  return typeof item === "string" ? item : String((item as Fields)[items.id] ?? "");
}

/** What AWS listed, in the field's AWS form: the listed objects, their IDs, or (given each one's value) the map. */
export function listedValue(
  form: ItemsForm,
  items: ItemsOf,
  listed: readonly unknown[],
  values?: ReadonlyMap<string, unknown>,
): unknown {
  switch (form) {
    case "objects":
      return listed;
    case "ids":
      return listed.map((i) => listedId(i, items));
    case "map":
      return Object.fromEntries(listed.map((i) => [listedId(i, items), values?.get(listedId(i, items))]));
  }
}

/** The calls' inputs that make AWS's items the spec's: removals (by ID) first, then each new or changed item. */
export function itemWrites(
  form: ItemsForm,
  items: ItemsOf,
  codec: Codec,
  desired: unknown,
  observed: unknown,
  /** How a map's values compare (IAM's inline policies: as JSON documents). */
  valueForm: DriftForm = "value",
): { readonly put: Fields[]; readonly remove: string[] } {
  if (form === "map") {
    const want = (desired ?? {}) as Fields;
    const have = (observed ?? {}) as Fields;
    const same = (a: unknown, b: unknown) =>
      sameJson(canonicalForm(valueForm, a), canonicalForm(valueForm, b));
    return {
      put: Object.entries(want)
        .filter(([id, v]) => !(id in have) || !same(v, have[id]))
        .map(([id, v]) => ({ [items.id]: id, [items.value ?? ""]: toAws(codec.map ?? {}, v) })),
      remove: Object.keys(have).filter((id) => !(id in want)),
    };
  }
  if (form === "ids") {
    const want = new Set(((desired ?? []) as unknown[]).map(String));
    const have = new Set(((observed ?? []) as unknown[]).map(String));
    return {
      put: [...want].filter((id) => !have.has(id)).map((id) => ({ [items.id]: id })),
      remove: [...have].filter((id) => !want.has(id)),
    };
  }
  // Objects: keyed by the spec member that holds the ID.
  const itemCodec = codec.list ?? {};
  const key = Object.entries(itemCodec.object ?? {}).find(([, [m]]) => m === items.id)?.[0] ?? "";
  const byId = (list: unknown) =>
    new Map(
      ((list ?? []) as Fields[]).map((item) => [String(item[key]), JSON.stringify(canonicalValue(item))]),
    );
  const want = byId(desired);
  const have = byId(observed);
  return {
    put: ((desired ?? []) as Fields[])
      .filter((item) => have.get(String(item[key])) !== want.get(String(item[key])))
      // Under its member, or as the call's own members (CloudWatch Logs' PutSubscriptionFilter).
      .map((item) =>
        items.member === undefined
          ? (toAws(itemCodec, item) as Fields)
          : { [items.id]: item[key], [items.member]: toAws(itemCodec, item) },
      ),
    remove: [...have.keys()].filter((id) => !want.has(id)),
  };
}
