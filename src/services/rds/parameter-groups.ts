// What RDS's two kinds of parameter group share (DBParameterGroup, DBClusterParameterGroup): the
// parameters a group sets are read with their describe call (source "user", page by page) beside
// it, and written by the kind — changed ones by the modify call, removed ones by the reset call,
// twenty per call, each with the apply method its type allows (a static parameter only at the
// next reboot). The calls and the member naming the group are the kind's.
import type { Ask, DeclaredKindHooks, Fields } from "../declared-kind/source.ts";

/** RDS takes at most this many parameters per ModifyDBParameterGroup or ResetDBParameterGroup. */
export const parametersPerCall = 20;

type Parameter = {
  readonly ParameterName?: string;
  readonly ParameterValue?: string;
  readonly ApplyType?: string;
};

/** The calls and the member naming the group, which differ between instance and cluster groups. */
export interface ParameterGroupCalls {
  /** `DBParameterGroupName`, `DBClusterParameterGroupName`. */
  readonly group: string;
  readonly describe: string;
  readonly modify: string;
  readonly reset: string;
}

/** The parameters of a group, page by page, until `enough` says so. */
async function describeParameters(
  ask: Ask,
  calls: ParameterGroupCalls,
  group: string,
  input: Fields,
  enough: (seen: readonly Parameter[]) => boolean = () => false,
): Promise<Parameter[]> {
  const seen: Parameter[] = [];
  let marker: unknown;
  do {
    const answer = await ask(calls.describe, {
      [calls.group]: group,
      ...input,
      ...(marker === undefined ? {} : { Marker: marker }),
    });
    seen.push(...((answer?.["Parameters"] as Parameter[] | undefined) ?? []));
    marker = answer?.["Marker"];
  } while (typeof marker === "string" && marker !== "" && !enough(seen));
  return seen;
}

/**
 * What changes a group's overrides from `have` to `want`: the parameters to set (new or changed
 * values) and to reset (no longer in the spec), each list in calls of at most twenty. Pure.
 */
export function parameterChanges(
  want: Readonly<Record<string, string>>,
  have: Readonly<Record<string, string>>,
): { readonly set: string[][]; readonly reset: string[][] } {
  const chunks = (names: string[]) =>
    Array.from({ length: Math.ceil(names.length / parametersPerCall) }, (_, i) =>
      names.slice(i * parametersPerCall, (i + 1) * parametersPerCall),
    );
  const set = Object.keys(want)
    .filter((name) => have[name] !== want[name])
    .sort();
  const reset = Object.keys(have)
    .filter((name) => !(name in want))
    .sort();
  return { set: chunks(set), reset: chunks(reset) };
}

/** RDS's apply method for a parameter of `applyType`: at once where it can, else at the next reboot. */
export const applyMethodFor = (applyType: string | undefined): "immediate" | "pending-reboot" =>
  applyType === "dynamic" ? "immediate" : "pending-reboot";

const overrides = (v: unknown): Record<string, string> =>
  typeof v === "object" && v !== null ? (v as Record<string, string>) : {};

/**
 * The hooks of a parameter group kind: the parameters it sets read beside it (source "user",
 * page by page) as its overrides and ACK's status, written by the kind (ParameterOverrides'
 * group is `byHook`): changed ones set, removed ones reset, twenty per call, each with the apply
 * method its type allows.
 */
export function parameterGroupHooks(calls: ParameterGroupCalls): DeclaredKindHooks {
  const parametersOf = (
    ask: Ask,
    group: string,
    input: Fields,
    enough?: (seen: readonly Parameter[]) => boolean,
  ) => describeParameters(ask, calls, group, input, enough);
  return {
    // The parameters the group sets, beside it: its overrides and ACK's status of them.
    answerMore: async (ask, answer) => ({
      Parameters: await parametersOf(ask, String(answer[calls.group] ?? ""), { Source: "user" }),
    }),
    fieldsFromAnswer: (item) => {
      const listed = (item["Parameters"] as Parameter[] | undefined) ?? [];
      const map = Object.fromEntries(
        listed.flatMap((p) =>
          p.ParameterName === undefined ? [] : [[p.ParameterName, p.ParameterValue ?? ""]],
        ),
      );
      return { parameterOverrides: Object.keys(map).length === 0 ? undefined : map };
    },
    writes: {
      [calls.modify]: async (ask, address, desired, observed) => {
        const want = overrides(desired["parameterOverrides"]);
        const { set, reset } = parameterChanges(want, overrides(observed["parameterOverrides"]));
        const named = new Set([...set, ...reset].flat());
        // Each parameter's type, from the group's own description (every parameter of its family).
        const types = new Map<string, string | undefined>();
        if (named.size > 0) {
          const all = await parametersOf(ask, address, {}, (seen) =>
            [...named].every((n) => seen.some((p) => p.ParameterName === n)),
          );
          for (const p of all) if (p.ParameterName !== undefined) types.set(p.ParameterName, p.ApplyType);
        }
        const method = (name: string) => applyMethodFor(types.get(name));
        for (const names of reset) {
          await ask(
            calls.reset,
            {
              [calls.group]: address,
              Parameters: names.map((n) => ({ ParameterName: n, ApplyMethod: method(n) })),
            },
            { field: "spec.parameterOverrides" },
          );
        }
        for (const names of set) {
          await ask(
            calls.modify,
            {
              [calls.group]: address,
              Parameters: names.map((n) => ({
                ParameterName: n,
                ParameterValue: want[n],
                ApplyMethod: method(n),
              })),
            },
            { field: "spec.parameterOverrides" },
          );
        }
      },
    },
  };
}
