// The DBCluster kind: its declaration (db-cluster-declaration.ts) served by the generic runtime,
// with RDS's quirks as the hooks DBInstance has too: one-way engine versions, KMS keys by ID or
// ARN, log exports counted with what is pending, ACK's deletion annotations (a final snapshot);
// and one value rule: ways of making a cluster crossrole does not take yet are refused, naming
// the field, before anything is sent.
import type { RDSClient } from "@aws-sdk/client-rds";
import * as rdsSdk from "@aws-sdk/client-rds";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { rdsClientFactory } from "./client.ts";
import { dbClusterDeclaration, dbClusterNotYet } from "./db-cluster-declaration.ts";
import { exportedLogTypes, finalSnapshotInput, sameEngineVersion, sameKeyIn } from "./db-instance.ts";
import { dbClusterGenerated } from "./generated/db-cluster-fields.ts";

const kind = requireKind("rds.services.k8s.aws/v1alpha1", "DBCluster");

/** The spec names of the fields of ways crossrole does not take yet, with what they are. */
const notYet = Object.entries(dbClusterNotYet).map(([aws, what]) => {
  const field = Object.entries(dbClusterGenerated.codecs).find(([, [member]]) => member === aws)?.[0];
  if (field === undefined) throw new Error(`DBCluster: ${aws} is no spec field`);
  return [field, what] as const;
});

/**
 * Its spec, status, object and CRD source: the generated schemas, and the fields of ways of making
 * a cluster crossrole does not take yet refused (zod only: ACK's manifests still apply, and the
 * resource says why).
 */
const schemas = declaredKindSchemas(
  { kind, declaration: dbClusterDeclaration, generated: dbClusterGenerated },
  {
    refine: (spec, ctx) => {
      for (const [field, what] of notYet) {
        if ((spec as Fields)[field] === undefined) continue;
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${what} is not supported by crossrole yet: remove spec.${field} (nothing was created)`,
        });
      }
      const s = spec as Fields;
      if (s["manageMasterUserPassword"] === true && s["masterUserPassword"] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["masterUserPassword"],
          message:
            "manageMasterUserPassword true and masterUserPassword are two ways to set the password and RDS takes one: remove masterUserPassword or set manageMasterUserPassword false",
        });
      }
    },
  },
);

export const { crdSource: dbClusterCrdSource } = schemas;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const dbClusterSource = {
  kind,
  declaration: dbClusterDeclaration,
  generated: dbClusterGenerated,
  schemas,
  sdk: rdsSdk,
  clientFactory: rdsClientFactory,
  hooks: {
    equal: {
      engineVersion: sameEngineVersion,
      performanceInsightsKMSKeyID: sameKeyIn("performanceInsightsKMSKeyID"),
      masterUserSecretKMSKeyID: sameKeyIn("masterUserSecretKMSKeyID"),
    },
    // The log types exported once RDS has applied what is pending (as ACK counts them).
    fieldsFromAnswer: (answer) => ({ enableCloudwatchLogsExports: exportedLogTypes(answer) }),
    deleteInput: (_spec, annotations) => finalSnapshotInput(annotations),
  },
} satisfies DeclaredKindSource<RDSClient>;

export const dbClusterService = declaredKindModule(dbClusterSource);
