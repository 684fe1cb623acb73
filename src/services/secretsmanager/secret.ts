// The Secret kind: its declaration (secret-declaration.ts) served by the generic runtime, with one
// hook: ACK's status versionID is the version Secrets Manager stages as AWSCURRENT, which
// DescribeSecret gives as a map of version to stages. The value from a Kubernetes Secret, a secret
// scheduled for deletion being none, the ARN as answered: declared.
import type { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import * as secretsManagerSdk from "@aws-sdk/client-secrets-manager";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { secretsManagerClientFactory } from "./client.ts";
import { secretGenerated } from "./generated/secret-fields.ts";
import { secretDeclaration } from "./secret-declaration.ts";

const kind = requireKind("secretsmanager.services.k8s.aws/v1alpha1", "Secret");

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({ kind, declaration: secretDeclaration, generated: secretGenerated });

export const { crdSource: secretCrdSource } = schemas;

/** The version staged AWSCURRENT, in DescribeSecret's map of version ID to its stages. */
function currentVersion(stages: unknown): string | undefined {
  if (typeof stages !== "object" || stages === null) return undefined;
  const found = Object.entries(stages as Record<string, unknown>).find(
    ([, s]) => Array.isArray(s) && s.includes("AWSCURRENT"),
  );
  return found?.[0];
}

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const secretSource = {
  kind,
  declaration: secretDeclaration,
  generated: secretGenerated,
  schemas,
  sdk: secretsManagerSdk,
  clientFactory: secretsManagerClientFactory,
  hooks: {
    statusFromAnswer: (answer) => {
      const version = currentVersion(answer["VersionIdsToStages"]);
      return version === undefined ? {} : { versionID: version };
    },
  },
} satisfies DeclaredKindSource<SecretsManagerClient>;

export const secretService = declaredKindModule(secretSource);
