// The input of a set call that carries only the fields that differ (FieldGroup.send "changed":
// RDS's ModifyDBInstance), as the declaration says each is sent: under its set call's member
// (`setAs`), as a change of a set (`change`), with what must go beside it (`with`), and, for a
// field the spec left out, what taking it back is (`removedAs`, its default, or the kind's
// `removed` hook; else nothing: AWS keeps it). Pure.
import type { FieldGroup } from "../../codegen/declaration.ts";
import type { DeclaredField } from "../../codegen/drift-rules.ts";
import { defaultWhenAbsent } from "../declared-drift.ts";
import { type FieldCodecs, toAws } from "../shape-codec.ts";

type Fields = Record<string, unknown>;

/** What the set call takes for a field the spec left out, where the kind computes it. */
export type RemovedHook = (desired: Fields, observed: Fields) => Fields | undefined;

export interface ChangedFields {
  /** The group as declared (AWS names). */
  readonly group: FieldGroup;
  /** The generated rules of the fields that differ (spec names), in the group's order. */
  readonly differing: readonly DeclaredField[];
  readonly codecs: FieldCodecs;
  readonly desired: Fields;
  readonly observed: Fields;
  readonly removed?: Readonly<Record<string, RemovedHook>> | undefined;
}

/** The set call's input for the fields that differ, without the object's address. */
export function changedFieldsInput(c: ChangedFields): Fields {
  const input: Fields = { ...c.group.input };
  const specOf = new Map(Object.entries(c.codecs).map(([field, [aws]]) => [aws, field]));
  for (const rule of c.differing) {
    const [aws, codec] = c.codecs[rule.field] ?? [rule.field, {}];
    const declared = c.group.fields[aws] ?? {};
    const want = c.desired[rule.field];
    if (declared.change !== undefined) {
      // A set written as a change: absent is none.
      const desired = new Set(toStrings(want));
      const observed = new Set(toStrings(c.observed[rule.field]));
      input[declared.change.member] = {
        [declared.change.add]: [...desired].filter((v) => !observed.has(v)).sort(),
        [declared.change.remove]: [...observed].filter((v) => !desired.has(v)).sort(),
      };
      continue;
    }
    if (want === undefined) {
      const fallback = defaultWhenAbsent(rule);
      Object.assign(
        input,
        declared.removedAs ??
          (fallback !== undefined
            ? { [declared.setAs ?? aws]: fallback }
            : c.removed?.[rule.field]?.(c.desired, c.observed)),
      );
      continue;
    }
    input[declared.setAs ?? aws] = toAws(codec, want);
    Object.assign(input, declared.with?.input);
    for (const other of declared.with?.fields ?? []) {
      const field = specOf.get(other);
      const entry = field === undefined ? undefined : c.codecs[field];
      if (field !== undefined && entry !== undefined && c.desired[field] !== undefined)
        input[other] = toAws(entry[1], c.desired[field]);
    }
  }
  return input;
}

function toStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
