// The RDS DBInstance kind plugged into the generic reconciler.
//
// RDS names instances per account and region, so the module's client is the pooled RDSClient
// plus the region it acts in. The ARN in status is built from the decided account and region
// (`arn`), which is where `read` looked; the identifier is always the spec's, lowercased (RDS
// stores it so). An instance spends minutes creating, modifying, backing-up, ...: `busy` tells
// the reconciler to write nothing and look again shortly, and `statusFrom` reports ACK's
// status.dbInstanceStatus and endpoint. The master password comes from a Secret
// (`secretFields`): the reconciler reads it and hands it to create, and to update whenever the
// Secret changed.
import {
  parseSpecWith,
  parseStatusWith,
  type SecretField,
  type SecretValues,
  type ServiceModule,
} from "../service-module.ts";
import {
  errorReporting,
  observationOf,
  regionalClient,
  specFieldComparison,
  withoutKeys,
} from "../service-module-parts.ts";
import { rdsClientFactory } from "./client.ts";
import {
  claimDBInstance,
  createDBInstance,
  type DBInstanceClient,
  deleteDBInstance,
  deleteOptionsFromAnnotations,
  masterUserPasswordPath,
  type ObservedDBInstance,
  passwordMissing,
  readDBInstance,
  updateDBInstance,
} from "./dbinstance.ts";
import { diff, lateInitialize, specStorageType } from "./diff.ts";
import { classifyError, DBInstanceError, isDBInstanceError } from "./errors.ts";
import { dbInstanceDeclared, dbInstanceReferences } from "./generated/db-instance-fields.ts";
import {
  arnOf,
  awsIdentifier,
  statusFromInstance,
  steadyStatuses,
  stuckStatuses,
  tagMapOf,
  userTags,
} from "./mapping.ts";
import {
  type DBInstanceFields,
  type DBInstanceSpec,
  dbInstanceKind,
  dbInstanceSpecSchema,
  dbInstanceStatusSchema,
} from "./schema.ts";

/** How soon to look again at an instance RDS is working on (creating, modifying, ...). */
export const busyRequeueMs = 15_000;
/** How soon to look again at an instance in a state RDS does not leave on its own (stopped, failed, ...). */
export const stuckRequeueMs = 60_000;

/** The spec fields of what AWS has. */
const fieldsOf = (observed: ObservedDBInstance): DBInstanceFields =>
  withoutKeys(observed, ["dbInstanceARN", "instance", "region"]);

/** The master password the reconciler read from the spec's Secret, if any. */
function passwordOf(secrets: SecretValues | undefined): string | undefined {
  return secrets?.values.get(masterUserPasswordPath);
}

export const dbInstanceService: ServiceModule<DBInstanceSpec, ObservedDBInstance, DBInstanceClient> = {
  kind: dbInstanceKind,
  parseSpec: parseSpecWith(dbInstanceSpecSchema),
  parseStatus: parseStatusWith(dbInstanceStatusSchema),
  client: regionalClient(rdsClientFactory, "rds"),
  identifier: (spec) => awsIdentifier(spec),
  identifierField: `spec.${dbInstanceDeclared.identifier}`,
  specTags: dbInstanceDeclared.specTags,
  references: dbInstanceReferences,
  secretFields(spec): readonly SecretField[] {
    const ref = spec.masterUserPassword;
    if (ref === undefined) return [];
    return [
      {
        path: masterUserPasswordPath,
        ref: {
          name: ref.name,
          key: ref.key,
          ...(ref.namespace === undefined ? {} : { namespace: ref.namespace }),
        },
      },
    ];
  },
  read: async (client, spec, ctx) => observationOf(await readDBInstance(client, spec, ctx), "dbInstance"),
  tagsOf: (observed) => tagMapOf(observed.tags),
  async create(client, spec, _region, ownerTags, ctx, secrets) {
    const password = passwordOf(secrets);
    if (spec.masterUserPassword !== undefined && password === undefined) {
      throw passwordMissing(awsIdentifier(spec), "CreateDBInstance");
    }
    const r = await createDBInstance(client, spec, ownerTags, password, ctx);
    return r.created
      ? {
          created: true,
          status: r.dbInstanceStatus === undefined ? {} : { dbInstanceStatus: r.dbInstanceStatus },
        }
      : { created: false };
  },
  async update(client, desired, observed, ownerTags, ctx, secrets) {
    // Taking the password back from Secrets Manager needs one: the spec's Secret's.
    const unmanaging =
      desired.manageMasterUserPassword === false && observed.manageMasterUserPassword === true;
    const passwordChanged = secrets?.changed.includes(masterUserPasswordPath) === true || unmanaging;
    const password = passwordChanged ? passwordOf(secrets) : undefined;
    if (passwordChanged && password === undefined) {
      throw passwordMissing(awsIdentifier(desired), "ModifyDBInstance");
    }
    const r = await updateDBInstance(client, desired, observed, ownerTags, password, ctx);
    return [...r.differences.map((d) => d.path), ...(r.passwordSet ? [masterUserPasswordPath] : [])];
  },
  claim: (client, observed, ownerTags, ctx) => claimDBInstance(client, observed, ownerTags, ctx),
  /**
   * DeleteDBInstance without a final snapshot unless the object's annotations ask for one
   * (ACK's rds.services.k8s.aws/skip-final-snapshot, final-db-snapshot-identifier and
   * delete-automated-backups); without them, ACK's default applies.
   */
  async delete(client, spec, ctx, annotations) {
    const parsed = deleteOptionsFromAnnotations(annotations);
    if (!parsed.ok) {
      throw new DBInstanceError({
        disposition: "terminal",
        code: "InvalidAnnotation",
        operation: "DeleteDBInstance",
        dbInstance: awsIdentifier(spec),
        message: `DeleteDBInstance on DB instance "${awsIdentifier(spec)}" not attempted: ${parsed.message}; fix the annotation and the deletion proceeds`,
      });
    }
    return deleteDBInstance(client, awsIdentifier(spec), parsed.options, ctx);
  },
  ...specFieldComparison(fieldsOf, diff, lateInitialize),
  specFromObserved(observed, spec) {
    const { tags, storageType, availabilityZone, manageMasterUserPassword, ...fields } = fieldsOf(observed);
    const user = userTags(tagMapOf(tags));
    const storage = specStorageType(storageType);
    return {
      ...fields,
      // What the spec's schema refuses together: an AZ beside Multi-AZ, RDS's management of
      // the password beside the spec's own Secret (the spec's says how it is meant to be).
      ...(availabilityZone === undefined || fields.multiAZ === true ? {} : { availabilityZone }),
      ...(manageMasterUserPassword === undefined || spec.masterUserPassword !== undefined
        ? {}
        : { manageMasterUserPassword }),
      // The spec's own spelling: RDS reports it lowercase, and the field is immutable.
      dbInstanceIdentifier: spec.dbInstanceIdentifier,
      ...(storage ? { storageType: storage } : {}),
      ...(user ? { tags: user } : {}),
      // RDS never reveals the password: the reference stays what the spec says.
      ...(spec.masterUserPassword ? { masterUserPassword: spec.masterUserPassword } : {}),
      ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
    };
  },
  arn: (spec, region, account) => arnOf(awsIdentifier(spec), region, account),
  statusFrom: (observed) => statusFromInstance(observed.instance),
  busy(observed) {
    const state = observed.instance.DBInstanceStatus;
    if (state === undefined || steadyStatuses.has(state)) return undefined;
    const id = awsIdentifier(observed);
    if (stuckStatuses.has(state)) {
      return {
        reason: "DBInstanceStatus",
        message: `DB instance ${id} is ${state} in AWS, a state RDS does not leave on its own${state === "stopped" ? " (start it in AWS: crossrole does not start or stop instances)" : ""}; crossrole changes nothing until it is available`,
        requeueAfterMs: stuckRequeueMs,
      };
    }
    return {
      reason: "DBInstanceStatus",
      message: `DB instance ${id} is ${state} in AWS; waiting until it is available`,
      requeueAfterMs: busyRequeueMs,
    };
  },
  observedRegion: (observed) => observed.region,
  ...errorReporting(isDBInstanceError, (err, spec: DBInstanceSpec) =>
    classifyError(err, { operation: "DescribeDBInstances", dbInstance: awsIdentifier(spec) }),
  ),
};
