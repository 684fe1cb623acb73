// DBInstance examples in identities.ts's table form: valid ones, and one invalid one per
// class of mistake. The kind's schema.test.ts (src/services/<service>/) runs them through zod and
// test/integration/rds-dbinstance-crd.test.ts through a real kube-apiserver with the generated
// CRD; both must reject each invalid one at `field`, which shows the zod and CEL halves agree.
import type { InvalidExample, ValidExample } from "./identities.ts";

type Obj = Record<string, unknown>;

export const dbInstanceExampleNamespace = "shop";

function dbInstance(name: string, spec: Obj): Obj {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBInstance",
    metadata: { name, namespace: dbInstanceExampleNamespace },
    spec,
  };
}

const minimal = { dbInstanceIdentifier: "orders", dbInstanceClass: "db.t3.micro", engine: "postgres" };

export const dbInstanceValidExamples: readonly ValidExample[] = [
  { title: "DBInstance with only the required fields", object: dbInstance("minimal", minimal) },
  {
    title: "DBInstance as in ACK's samples: every managed field, ACK's names and shapes, and an identityRef",
    object: dbInstance("full", {
      dbInstanceIdentifier: "shop-orders",
      dbInstanceClass: "db.m6g.large",
      engine: "postgres",
      engineVersion: "16.3",
      allocatedStorage: 100,
      masterUsername: "shop_admin",
      masterUserPassword: { namespace: dbInstanceExampleNamespace, name: "orders-db", key: "password" },
      dbName: "orders",
      multiAZ: true,
      storageType: "gp3",
      storageEncrypted: true,
      publiclyAccessible: false,
      backupRetentionPeriod: 7,
      deletionProtection: true,
      tags: [
        { key: "team", value: "shop" },
        { key: "cost-center", value: "" },
      ],
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    }),
  },
  {
    title: "uppercase identifier (RDS stores it lowercase; crossrole asks RDS in lowercase)",
    object: dbInstance("upper", { ...minimal, dbInstanceIdentifier: "Orders-DB1" }),
  },
  {
    title: "identifier of 63 characters, password reference without a namespace",
    object: dbInstance("long", {
      ...minimal,
      dbInstanceIdentifier: `a${"b".repeat(61)}c`,
      engine: "mysql",
      masterUsername: "admin",
      masterUserPassword: { name: "db-credentials", key: "admin.password" },
    }),
  },
  {
    title: "placed in a VPC, encrypted with a KMS key, monitored and exporting logs (ACK's field names)",
    object: dbInstance("vpc", {
      ...minimal,
      dbSubnetGroupName: "private",
      vpcSecurityGroupIDs: ["sg-0123456789abcdef0", "sg-0fedcba9876543210"],
      storageEncrypted: true,
      kmsKeyID: "arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      port: 5433,
      copyTagsToSnapshot: true,
      manageMasterUserPassword: true,
      masterUsername: "shop_admin",
      storageType: "io2",
      iops: 3000,
      maxAllocatedStorage: 200,
      preferredBackupWindow: "03:00-03:30",
      preferredMaintenanceWindow: "sun:05:00-sun:06:00",
      enableCloudwatchLogsExports: ["postgresql", "upgrade"],
      enableIAMDatabaseAuthentication: true,
      monitoringInterval: 60,
      monitoringRoleARN: "arn:aws:iam::111111111111:role/rds-monitoring",
      performanceInsightsEnabled: true,
      performanceInsightsRetentionPeriod: 7,
      caCertificateIdentifier: "rds-ca-rsa2048-g1",
      dbParameterGroupName: "orders-pg16",
      autoMinorVersionUpgrade: false,
      networkType: "IPV4",
    }),
  },
  {
    title: "ACK's e2e manifest db_instance_postgres17_adopt (RDS manages the password)",
    object: dbInstance("ack-adopt", {
      allocatedStorage: 20,
      dbInstanceClass: "db.t4g.micro",
      dbInstanceIdentifier: "ack-adopt",
      engine: "postgres",
      engineVersion: "17",
      manageMasterUserPassword: true,
      masterUsername: "dbadmin",
      multiAZ: false,
      storageType: "gp2",
    }),
  },
];

export const dbInstanceInvalidExamples: readonly InvalidExample[] = [
  {
    title: "DBInstance without spec.dbInstanceIdentifier",
    object: dbInstance("no-id", { dbInstanceClass: "db.t3.micro", engine: "postgres" }),
    field: "spec.dbInstanceIdentifier",
    message: "dbInstanceIdentifier is required",
    apiserverMessage: "Required value",
  },
  {
    title: "DBInstance without spec.engine",
    object: dbInstance("no-engine", { dbInstanceIdentifier: "orders", dbInstanceClass: "db.t3.micro" }),
    field: "spec.engine",
    message: "engine is required",
    apiserverMessage: "Required value",
  },
  {
    title: "identifier starting with a digit",
    object: dbInstance("digit", { ...minimal, dbInstanceIdentifier: "1orders" }),
    field: "spec.dbInstanceIdentifier",
    message: "dbInstanceIdentifier must be 1-63 letters, digits or hyphens, start with a letter",
    apiserverMessage: "should match",
  },
  {
    title: "identifier with two consecutive hyphens",
    object: dbInstance("hyphens", { ...minimal, dbInstanceIdentifier: "orders--db" }),
    field: "spec.dbInstanceIdentifier",
    message: "nor contain two consecutive hyphens",
    apiserverMessage: "should match",
  },
  {
    title: "identifier ending with a hyphen",
    object: dbInstance("trailing", { ...minimal, dbInstanceIdentifier: "orders-" }),
    field: "spec.dbInstanceIdentifier",
    message: "neither end with a hyphen",
    apiserverMessage: "should match",
  },
  {
    title: "identifier of 64 characters",
    object: dbInstance("too-long", { ...minimal, dbInstanceIdentifier: "a".repeat(64) }),
    field: "spec.dbInstanceIdentifier",
    message: "dbInstanceIdentifier must be 1-63",
    apiserverMessage: "may not be more than 63 bytes",
  },
  {
    title: "unknown engine",
    object: dbInstance("bad-engine", { ...minimal, engine: "postgresql" }),
    field: "spec.engine",
    message: "engine must be one of mariadb, mysql, postgres",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "instance class without the db. prefix",
    object: dbInstance("bad-class", { ...minimal, dbInstanceClass: "t3.micro" }),
    field: "spec.dbInstanceClass",
    message: "dbInstanceClass must be an RDS DB instance class",
    apiserverMessage: "should match",
  },
  {
    title: "zero allocatedStorage",
    object: dbInstance("zero-storage", { ...minimal, allocatedStorage: 0 }),
    field: "spec.allocatedStorage",
    message: "allocatedStorage must be between 1 and 65536 GiB",
  },
  {
    title: "allocatedStorage as a string (ACK's shape is an integer)",
    object: dbInstance("string-storage", { ...minimal, allocatedStorage: "20" }),
    field: "spec.allocatedStorage",
    message: "allocatedStorage must be a whole number of GiB",
    apiserverMessage: "must be of type integer",
  },
  {
    title: "backupRetentionPeriod over 35 days",
    object: dbInstance("long-backups", { ...minimal, backupRetentionPeriod: 36 }),
    field: "spec.backupRetentionPeriod",
    message: "backupRetentionPeriod must be between 0 and 35 days",
  },
  {
    title: "storageType io1 without iops",
    object: dbInstance("io1", { ...minimal, storageType: "io1" }),
    field: "spec.iops",
    message: "storageType io1 and io2 need provisioned IOPS",
  },
  {
    title: "manageMasterUserPassword beside a masterUserPassword Secret",
    object: dbInstance("two-passwords", {
      ...minimal,
      manageMasterUserPassword: true,
      masterUserPassword: { name: "orders-db", key: "password" },
    }),
    field: "spec.masterUserPassword",
    message: "manageMasterUserPassword true and masterUserPassword are two ways",
  },
  {
    title: "port below RDS's range",
    object: dbInstance("low-port", { ...minimal, port: 80 }),
    field: "spec.port",
    message: "port must be between 1150 and 65535",
  },
  {
    title: "unknown storageType",
    object: dbInstance("bad-storage", { ...minimal, storageType: "ssd" }),
    field: "spec.storageType",
    message: "storageType must be one of gp2, gp3, io1, io2, standard",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "masterUsername starting with a digit",
    object: dbInstance("bad-user", { ...minimal, masterUsername: "1admin" }),
    field: "spec.masterUsername",
    message: "masterUsername must be 1-16 letters, digits or underscores, starting with a letter",
    apiserverMessage: "should match",
  },
  {
    title: "masterUserPassword as the password itself instead of a Secret reference",
    object: dbInstance("plain-password", { ...minimal, masterUserPassword: "hunter22hunter22" }),
    field: "spec.masterUserPassword",
    message: "masterUserPassword must be a Secret key reference {name, key}",
    apiserverMessage: "must be of type object",
  },
  {
    title: "masterUserPassword reference without a key",
    object: dbInstance("no-key", { ...minimal, masterUserPassword: { name: "orders-db" } }),
    field: "spec.masterUserPassword.key",
    message: "masterUserPassword.key is required",
    apiserverMessage: "Required value",
  },
  {
    title: "dbName with a hyphen",
    object: dbInstance("bad-dbname", { ...minimal, dbName: "shop-orders" }),
    field: "spec.dbName",
    message: "dbName must be 1-64 letters, digits or underscores",
    apiserverMessage: "should match",
  },
  {
    title: "tags with a reserved ownership key",
    object: dbInstance("reserved-tag", {
      ...minimal,
      tags: [{ key: "crossrole.dev/owner", value: "DBInstance/other/x" }],
    }),
    field: "spec.tags[0].key",
    message: 'tags[].key "crossrole.dev/owner" is reserved: keys starting with crossrole.dev/',
  },
  {
    title: "tags with an rds: key",
    object: dbInstance("rds-tag", { ...minimal, tags: [{ key: "rds:backup", value: "x" }] }),
    field: "spec.tags[0].key",
    message:
      'tags[].key "rds:backup" is reserved: keys starting with rds: (compared after trimming spaces, in any case) are reserved by RDS',
  },
  {
    title: "tags as a map instead of ACK's list of {key, value}",
    object: dbInstance("tag-map", { ...minimal, tags: { team: "shop" } }),
    field: "spec.tags",
    message: "tags must be a list of {key, value}",
    apiserverMessage: "must be of type array",
  },
];
