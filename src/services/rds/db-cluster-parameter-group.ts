// The DBClusterParameterGroup kind: its declaration (db-cluster-parameter-group-declaration.ts)
// served by the generic runtime, with the parameter hooks RDS's parameter groups share
// (parameter-groups.ts) over the cluster calls, and one value rule: ACK's deprecated `parameters`
// is refused, naming parameterOverrides.
import type { RDSClient } from "@aws-sdk/client-rds";
import * as rdsSdk from "@aws-sdk/client-rds";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { rdsClientFactory } from "./client.ts";
import { dbClusterParameterGroupDeclaration } from "./db-cluster-parameter-group-declaration.ts";
import { dbClusterParameterGroupGenerated } from "./generated/db-cluster-parameter-group-fields.ts";
import { parameterGroupHooks } from "./parameter-groups.ts";

const kind = requireKind("rds.services.k8s.aws/v1alpha1", "DBClusterParameterGroup");

/** Its spec, status, object and CRD source, ACK's deprecated `parameters` refused (zod only: ACK's manifests apply). */
const schemas = declaredKindSchemas(
  { kind, declaration: dbClusterParameterGroupDeclaration, generated: dbClusterParameterGroupGenerated },
  {
    refine: (spec, ctx) => {
      if ((spec as Record<string, unknown>)["parameters"] === undefined) return;
      ctx.addIssue({
        code: "custom",
        path: ["parameters"],
        message:
          "parameters is ACK's deprecated form, which crossrole does not take: set each parameter in spec.parameterOverrides (name: value) and remove spec.parameters (nothing was created)",
      });
    },
  },
);

export const { crdSource: dbClusterParameterGroupCrdSource } = schemas;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const dbClusterParameterGroupSource = {
  kind,
  declaration: dbClusterParameterGroupDeclaration,
  generated: dbClusterParameterGroupGenerated,
  schemas,
  sdk: rdsSdk,
  clientFactory: rdsClientFactory,
  hooks: parameterGroupHooks({
    group: "DBClusterParameterGroupName",
    describe: "DescribeDBClusterParameters",
    modify: "ModifyDBClusterParameterGroup",
    reset: "ResetDBClusterParameterGroup",
  }),
} satisfies DeclaredKindSource<RDSClient>;

export const dbClusterParameterGroupService = declaredKindModule(dbClusterParameterGroupSource);
