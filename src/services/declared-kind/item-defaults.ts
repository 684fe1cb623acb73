// Item members AWS fills in where the spec leaves them out (FieldGroup.items.defaults: CloudWatch
// Logs answers a subscription filter's distribution ByLogStream though none was sent). Both sides
// drop a member holding its default before they are compared, so an item written without it is
// the item AWS reports, and one that names the default is the same item. Pure.
import type { KindDeclaration } from "../../codegen/declaration.ts";
import type { DefaultValue } from "../../codegen/drift-rules.ts";
import type { FieldCodecs } from "../shape-codec.ts";
import { codecOf, specFieldOf } from "./answer-fields.ts";

type Fields = Record<string, unknown>;

/** `fields` with each items field's members that hold their default left out (a copy where any did). */
export function itemDefaultsDropper(
  declaration: Pick<KindDeclaration, "groups">,
  codecs: FieldCodecs,
  awsNames: Readonly<Record<string, string>> = {},
): (fields: Fields) => Fields {
  const byField = declaration.groups.flatMap((g) => {
    const defaults = g.items?.defaults;
    const [aws] = Object.keys(g.fields);
    if (defaults === undefined || aws === undefined) return [];
    const field = specFieldOf(codecs, aws, awsNames);
    const members = codecOf(codecs, field)[1].list?.object ?? {};
    const inSpecForm = Object.entries(defaults).map(([member, value]): [string, DefaultValue] => {
      const name = Object.entries(members).find(([, [m]]) => m === member)?.[0];
      if (name === undefined)
        throw new Error(`items.defaults names ${member}, no member of spec.${field}'s items`);
      return [name, value];
    });
    return [[field, inSpecForm] as const];
  });
  if (byField.length === 0) return (fields) => fields;
  return (fields) => {
    const out = { ...fields };
    for (const [field, defaults] of byField) {
      const list = out[field];
      if (!Array.isArray(list)) continue;
      out[field] = list.map((item: Fields) =>
        Object.fromEntries(
          Object.entries(item).filter(([k, v]) => !defaults.some(([d, dv]) => d === k && dv === v)),
        ),
      );
    }
    return out;
  };
}
