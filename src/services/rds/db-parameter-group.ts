// The DBParameterGroup kind: its declaration (db-parameter-group-declaration.ts) served by the
// generic runtime, with hooks for RDS's parameters: the ones a group sets are read with
// DescribeDBParameters (source "user", page by page) beside the group, and written by the kind —
// changed ones by ModifyDBParameterGroup, removed ones by ResetDBParameterGroup, twenty per call,
// each with the apply method its type allows (a static parameter only at the next reboot).
import type { RDSClient } from "@aws-sdk/client-rds";
import * as rdsSdk from "@aws-sdk/client-rds";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindHooks, DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { rdsClientFactory } from "./client.ts";
import { dbParameterGroupDeclaration } from "./db-parameter-group-declaration.ts";
import { dbParameterGroupGenerated } from "./generated/db-parameter-group-fields.ts";

const kind = requireKind("rds.services.k8s.aws/v1alpha1", "DBParameterGroup");

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({
  kind,
  declaration: dbParameterGroupDeclaration,
  generated: dbParameterGroupGenerated,
});

export const { crdSource: dbParameterGroupCrdSource } = schemas;

/** RDS takes at most this many parameters per ModifyDBParameterGroup or ResetDBParameterGroup. */
export const parametersPerCall = 20;

type Parameter = {
  readonly ParameterName?: string;
  readonly ParameterValue?: string;
  readonly ApplyType?: string;
};

/** DescribeDBParameters' parameters of a group, page by page, until `enough` says so. */
async function parametersOf(
  ask: Ask,
  group: string,
  input: Fields,
  enough: (seen: readonly Parameter[]) => boolean = () => false,
): Promise<Parameter[]> {
  const seen: Parameter[] = [];
  let marker: unknown;
  do {
    const answer = await ask("DescribeDBParameters", {
      DBParameterGroupName: group,
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

const hooks: DeclaredKindHooks = {
  // The parameters the group sets, beside it: its overrides and ACK's status of them.
  answerMore: async (ask, answer) => ({
    Parameters: await parametersOf(ask, String(answer["DBParameterGroupName"] ?? ""), { Source: "user" }),
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
    ModifyDBParameterGroup: async (ask, address, desired, observed) => {
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
          "ResetDBParameterGroup",
          {
            DBParameterGroupName: address,
            Parameters: names.map((n) => ({ ParameterName: n, ApplyMethod: method(n) })),
          },
          { field: "spec.parameterOverrides" },
        );
      }
      for (const names of set) {
        await ask(
          "ModifyDBParameterGroup",
          {
            DBParameterGroupName: address,
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

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const dbParameterGroupSource = {
  kind,
  declaration: dbParameterGroupDeclaration,
  generated: dbParameterGroupGenerated,
  schemas,
  sdk: rdsSdk,
  clientFactory: rdsClientFactory,
  hooks,
} satisfies DeclaredKindSource<RDSClient>;

export const dbParameterGroupService = declaredKindModule(dbParameterGroupSource);
