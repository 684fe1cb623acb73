// The DBParameterGroup kind: its declaration (db-parameter-group-declaration.ts) served by the
// generic runtime, with the parameter hooks RDS's parameter groups share (parameter-groups.ts):
// DescribeDBParameters, ModifyDBParameterGroup, ResetDBParameterGroup.
import type { RDSClient } from "@aws-sdk/client-rds";
import * as rdsSdk from "@aws-sdk/client-rds";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { rdsClientFactory } from "./client.ts";
import { dbParameterGroupDeclaration } from "./db-parameter-group-declaration.ts";
import { dbParameterGroupGenerated } from "./generated/db-parameter-group-fields.ts";
import { parameterGroupHooks } from "./parameter-groups.ts";

const kind = requireKind("rds.services.k8s.aws/v1alpha1", "DBParameterGroup");

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({
  kind,
  declaration: dbParameterGroupDeclaration,
  generated: dbParameterGroupGenerated,
});

export const { crdSource: dbParameterGroupCrdSource } = schemas;

const hooks = parameterGroupHooks({
  group: "DBParameterGroupName",
  describe: "DescribeDBParameters",
  modify: "ModifyDBParameterGroup",
  reset: "ResetDBParameterGroup",
});

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
