// The DBSubnetGroup kind: its declaration (db-subnet-group-declaration.ts) served by the generic
// runtime, with no hook (RDS's answer of the subnets, `Subnets[].SubnetIdentifier`, is declared).

import type { RDSClient } from "@aws-sdk/client-rds";
import * as rdsSdk from "@aws-sdk/client-rds";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { rdsClientFactory } from "./client.ts";
import { dbSubnetGroupDeclaration } from "./db-subnet-group-declaration.ts";
import { dbSubnetGroupGenerated } from "./generated/db-subnet-group-fields.ts";

const kind = requireKind("rds.services.k8s.aws/v1alpha1", "DBSubnetGroup");

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({
  kind,
  declaration: dbSubnetGroupDeclaration,
  generated: dbSubnetGroupGenerated,
});

export const { crdSource: dbSubnetGroupCrdSource } = schemas;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const dbSubnetGroupSource = {
  kind,
  declaration: dbSubnetGroupDeclaration,
  generated: dbSubnetGroupGenerated,
  schemas,
  sdk: rdsSdk,
  clientFactory: rdsClientFactory,
} satisfies DeclaredKindSource<RDSClient>;

export const dbSubnetGroupService = declaredKindModule(dbSubnetGroupSource);
