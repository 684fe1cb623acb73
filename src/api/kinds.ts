// The managed AWS resource kinds crossrole knows, with the names ACK gives them.
// `service` is the key used by service-level CARM (`<service>.<accountID>`) and by the
// namespace annotation `<service>.services.k8s.aws/deletion-policy`.

export interface ResourceKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly service: string;
  /** Its spec references Secrets in its own namespace (a DBInstance's masterUserPassword). */
  readonly readsSecrets?: boolean;
}

function kind<const K extends string>(
  service: string,
  kindName: K,
  plural: string,
  extra: { readonly readsSecrets?: boolean } = {},
): ResourceKind & { readonly kind: K } {
  return {
    group: `${service}.services.k8s.aws`,
    version: "v1alpha1",
    kind: kindName,
    plural,
    singular: kindName.toLowerCase(),
    service,
    ...extra,
  };
}

export const resourceKinds = [
  kind("s3", "Bucket", "buckets"),
  kind("sqs", "Queue", "queues"),
  kind("sns", "Topic", "topics"),
  kind("dynamodb", "Table", "tables"),
  kind("rds", "DBInstance", "dbinstances", { readsSecrets: true }),
  kind("rds", "DBSubnetGroup", "dbsubnetgroups"),
  kind("rds", "DBParameterGroup", "dbparametergroups"),
  kind("rds", "DBCluster", "dbclusters", { readsSecrets: true }),
  kind("rds", "DBClusterParameterGroup", "dbclusterparametergroups"),
  kind("ecr", "Repository", "repositories"),
  kind("cloudwatchlogs", "LogGroup", "loggroups"),
  kind("iam", "Role", "roles"),
  kind("iam", "Policy", "policies"),
  kind("secretsmanager", "Secret", "secrets"),
  kind("kms", "Key", "keys"),
  kind("kms", "Alias", "aliases"),
  kind("ec2", "VPC", "vpcs"),
  kind("ec2", "Subnet", "subnets"),
  kind("ec2", "SecurityGroup", "securitygroups"),
  kind("lambda", "Function", "functions"),
] as const satisfies readonly ResourceKind[];

/**
 * The name of a kind crossrole knows. src/services/catalog.ts must give each one its service
 * module, schemas and declaration: the compiler checks that none is missing.
 */
export type KindName = (typeof resourceKinds)[number]["kind"];

export function apiVersionOf(k: ResourceKind): string {
  return `${k.group}/${k.version}`;
}

/**
 * Finds a kind the way kubectl does: `Bucket`, `bucket`, `buckets`, or fully qualified
 * `buckets.s3.services.k8s.aws` / `bucket.s3.services.k8s.aws` / `Bucket.s3.services.k8s.aws`.
 */
export function lookupKind(name: string): ResourceKind | undefined {
  const dot = name.indexOf(".");
  const short = (dot < 0 ? name : name.slice(0, dot)).toLowerCase();
  const group = dot < 0 ? undefined : name.slice(dot + 1).toLowerCase();
  return resourceKinds.find(
    (k) =>
      (group === undefined || k.group === group) &&
      (k.plural === short || k.singular === short || k.kind.toLowerCase() === short),
  );
}

/** Finds a kind by apiVersion + kind as written in a manifest. */
export function kindOf(apiVersion: string, kindName: string): ResourceKind | undefined {
  return resourceKinds.find((k) => apiVersionOf(k) === apiVersion && k.kind === kindName);
}
