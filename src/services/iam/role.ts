// The Role kind: its declaration (role-declaration.ts) served by the generic runtime, with no hook:
// IAM's documents answered URL-encoded, the attached policies by ARN, the inline policies by name
// (each read by its own call), the ARN with its path and no region, and the policies removed
// before the role is deleted are all declared.
import type { IAMClient } from "@aws-sdk/client-iam";
import * as iamSdk from "@aws-sdk/client-iam";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { iamClientFactory } from "./client.ts";
import { roleGenerated } from "./generated/role-fields.ts";
import { roleDeclaration } from "./role-declaration.ts";

const kind = requireKind("iam.services.k8s.aws/v1alpha1", "Role");

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({ kind, declaration: roleDeclaration, generated: roleGenerated });

export const { crdSource: roleCrdSource } = schemas;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const roleSource = {
  kind,
  declaration: roleDeclaration,
  generated: roleGenerated,
  schemas,
  sdk: iamSdk,
  clientFactory: iamClientFactory,
} satisfies DeclaredKindSource<IAMClient>;

export const roleService = declaredKindModule(roleSource);
