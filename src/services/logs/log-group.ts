// The LogGroup kind: its declaration (log-group-declaration.ts) served by the generic runtime,
// with no hook: CloudWatch Logs' read by name prefix, its subscription filters one per name, and
// its retention policy set and deleted by calls of their own are all declared. One value rule:
// the retentions AWS accepts.
import type { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import * as logsSdk from "@aws-sdk/client-cloudwatch-logs";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { logsClientFactory } from "./client.ts";
import { logGroupGenerated } from "./generated/log-group-fields.ts";
import { logGroupDeclaration } from "./log-group-declaration.ts";

const kind = requireKind("cloudwatchlogs.services.k8s.aws/v1alpha1", "LogGroup");

/** The retentions CloudWatch Logs accepts, in days (the model's documentation of `Days`). */
export const retentionDays = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

/**
 * Its spec, status, object and CRD source: the generated schemas (built once, for the module and the
 * CRD), and a retention AWS would refuse refused before the log group is made (zod only, so that
 * ACK's manifest of an invalid retention still applies and the resource says why).
 */
const schemas = declaredKindSchemas(
  { kind, declaration: logGroupDeclaration, generated: logGroupGenerated },
  {
    refine: (spec, ctx) => {
      const days = spec.retentionDays;
      if (days === undefined || retentionDays.includes(days)) return;
      ctx.addIssue({
        code: "custom",
        path: ["retentionDays"],
        message: `${days} is not a retention CloudWatch Logs accepts; use one of ${retentionDays.join(", ")} days, or remove it for events that never expire`,
      });
    },
  },
);

export const { crdSource: logGroupCrdSource } = schemas;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const logGroupSource = {
  kind,
  declaration: logGroupDeclaration,
  generated: logGroupGenerated,
  schemas,
  sdk: logsSdk,
  clientFactory: logsClientFactory,
} satisfies DeclaredKindSource<CloudWatchLogsClient>;

export const logGroupService = declaredKindModule(logGroupSource);
