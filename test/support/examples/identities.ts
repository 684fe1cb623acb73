// Example objects for the identity kinds and selectors (the served kinds have a file each
// beside this one, in the same table form): valid ones, and one invalid one per class
// of mistake. The unit tests run them through zod, the admission test through a real
// kube-apiserver with the generated CRDs; both must reject each invalid example at `field`
// with a message that names it. Keeping one table is what shows the two halves agree.

type Obj = Record<string, unknown>;

export interface ValidExample {
  readonly title: string;
  readonly object: Obj;
}

export interface InvalidExample {
  readonly title: string;
  readonly object: Obj;
  /** Where both zod and the apiserver report the error, e.g. `spec.sessionTags[1].key`. */
  readonly field: string;
  /** A fragment of the zod message. */
  readonly message: string;
  /** A fragment of the apiserver's message, when it words the error itself (maxItems, enum...). */
  readonly apiserverMessage?: string;
  /** Where the apiserver reports it, when that differs from `field`. */
  readonly apiserverField?: string;
  /**
   * Why only admission refuses it: a transition rule that also judges a create (`optionalOldSelf`),
   * which zod, never seeing the old object, cannot; the unit tests check zod lets it through.
   */
  readonly admissionOnly?: string;
}

const selectorApiVersion = "services.k8s.aws/v1alpha1";
const identityApiVersion = "identity.crossrole.dev/v1alpha1";
const roleArn = "arn:aws:iam::111111111111:role/XAccountS3";

export const exampleNamespace = "shop";

function selector(name: string, spec: Obj): Obj {
  return { apiVersion: selectorApiVersion, kind: "IAMRoleSelector", metadata: { name }, spec };
}
function identity(kind: string, name: string, spec: Obj | undefined, namespace?: string): Obj {
  const metadata = namespace === undefined ? { name } : { name, namespace };
  return spec === undefined
    ? { apiVersion: identityApiVersion, kind, metadata }
    : { apiVersion: identityApiVersion, kind, metadata, spec };
}
const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `v${i}` }));
const roleIdentitySpec = (extra: Obj = {}): Obj => ({
  sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
  roleARN: "arn:aws:iam::222222222222:role/billing/CentralRDS",
  ...extra,
});
const saIdentitySpec = (extra: Obj = {}): Obj => ({
  roleARN: "arn:aws:iam::111111111111:role/ShopWebIdentity",
  serviceAccountName: "shop-app",
  ...extra,
});

export const validExamples: readonly ValidExample[] = [
  { title: "IAMRoleSelector with only an arn", object: selector("minimal", { arn: roleArn }) },
  {
    title: "IAMRoleSelector with every field, both resourceTypeSelector forms",
    object: selector("full", {
      arn: "arn:aws-us-gov:iam::111111111111:role/path/to/XAccountS3",
      namespaceSelector: {
        names: ["sky-dev-team", "shop"],
        labelSelector: {
          matchLabels: { team: "a" },
          matchExpressions: [
            { key: "env", operator: "In", values: ["dev", "prod"] },
            { key: "legacy", operator: "DoesNotExist" },
          ],
        },
      },
      resourceTypeSelector: [
        { apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" },
        { apiVersion: "sqs.services.k8s.aws/v1alpha1" },
        { group: "rds.services.k8s.aws", version: "", kind: "DBInstance" },
        { group: "", version: "", kind: "" },
      ],
      resourceLabelSelector: { matchLabels: { "app.kubernetes.io/name": "shop" } },
      externalID: "shop-ext:id/1",
      sessionName: "crossrole.shop",
      durationSeconds: 3600,
      sessionTags: [
        { key: "team", value: "shop" },
        { key: "cost-center", value: "" },
      ],
      transitiveTagKeys: ["team", "kubernetes-namespace"],
      tenantSessionTags: true,
    }),
  },
  {
    title: "IAMRoleSelector with 50 session tags and no tenant tags",
    object: selector("fifty-tags", { arn: roleArn, sessionTags: tags(50) }),
  },
  {
    title: "AWSControllerIdentity default without spec",
    object: identity("AWSControllerIdentity", "default", undefined),
  },
  {
    title: "AWSControllerIdentity default allowing every namespace ({})",
    object: identity("AWSControllerIdentity", "default", { allowedNamespaces: {} }),
  },
  {
    title: "AWSStaticIdentity with a list and a selector",
    object: identity("AWSStaticIdentity", "static-keys", {
      secretRef: "static-keys",
      allowedNamespaces: { list: ["shop", "billing"], selector: { matchLabels: { static: "yes" } } },
    }),
  },
  {
    title: "AWSStaticIdentity with allowedNamespaces null (no namespace)",
    object: identity("AWSStaticIdentity", "static-none", {
      secretRef: "static-keys",
      allowedNamespaces: null,
    }),
  },
  {
    title: "AWSRoleIdentity with every field",
    object: identity(
      "AWSRoleIdentity",
      "central-rds",
      roleIdentitySpec({
        sessionName: "crossrole-central-rds",
        durationSeconds: 43200,
        externalID: "central-it",
        inlinePolicy:
          '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"rds:*","Resource":"*"}]}',
        policyARNs: ["arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::222222222222:policy/team/Extra"],
        sessionTags: [{ key: "team", value: "shop" }],
        transitiveTagKeys: ["team"],
        sourceIdentity: "alice@example.com",
        tenantSessionTags: false,
        allowedNamespaces: {
          list: [],
          selector: { matchExpressions: [{ key: "team", operator: "Exists" }] },
        },
      }),
    ),
  },
  {
    title: "AWSRoleIdentity chained from another AWSRoleIdentity, list: null",
    object: identity(
      "AWSRoleIdentity",
      "chained",
      roleIdentitySpec({
        sourceIdentityRef: { kind: "AWSRoleIdentity", name: "central-rds" },
        allowedNamespaces: { list: null },
      }),
    ),
  },
  {
    title: "AWSServiceAccountIdentity with defaults",
    object: identity("AWSServiceAccountIdentity", "shop-web", saIdentitySpec(), exampleNamespace),
  },
  {
    title: "AWSServiceAccountIdentity with every field",
    object: identity(
      "AWSServiceAccountIdentity",
      "shop-web-full",
      saIdentitySpec({
        audiences: ["sts.amazonaws.com", "crossrole"],
        expirationSeconds: 600,
        sessionName: "shop-web",
        durationSeconds: 900,
      }),
      exampleNamespace,
    ),
  },
  {
    title: "Bucket with identityRef and its own spec fields",
    object: {
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: { name: "alice-assets", namespace: exampleNamespace },
      spec: { name: "alice-assets", identityRef: { kind: "AWSRoleIdentity", name: "central-rds" } },
    },
  },
];

export const invalidExamples: readonly InvalidExample[] = [
  // ---- IAMRoleSelector ----
  {
    title: "arn is a user ARN, not a role ARN",
    object: selector("bad-arn", { arn: "arn:aws:iam::111111111111:user/bob" }),
    field: "spec.arn",
    message: "arn must be an IAM role ARN",
  },
  {
    title: "arn with an 11-digit account",
    object: selector("bad-account", { arn: "arn:aws:iam::11111111111:role/X" }),
    field: "spec.arn",
    message: "arn must be an IAM role ARN",
  },
  {
    title: "arn missing",
    object: selector("no-arn", { sessionName: "ok-name" }),
    field: "spec.arn",
    message: "arn is required",
    apiserverMessage: "Required value",
  },
  {
    title: "durationSeconds below 900",
    object: selector("short", { arn: roleArn, durationSeconds: 899 }),
    field: "spec.durationSeconds",
    message: "durationSeconds must be between 900 and 43200",
  },
  {
    title: "durationSeconds above 43200",
    object: selector("long", { arn: roleArn, durationSeconds: 43201 }),
    field: "spec.durationSeconds",
    message: "durationSeconds must be between 900 and 43200",
  },
  {
    title: "sessionName with a space",
    object: selector("bad-session", { arn: roleArn, sessionName: "my session" }),
    field: "spec.sessionName",
    message: "sessionName must be 2-64 characters",
  },
  {
    title: "sessionName of one character",
    object: selector("short-session", { arn: roleArn, sessionName: "a" }),
    field: "spec.sessionName",
    message: "sessionName must be 2-64 characters",
  },
  {
    title: "externalID with a forbidden character",
    object: selector("bad-external", { arn: roleArn, externalID: "secret!" }),
    field: "spec.externalID",
    message: "externalID must be 2-1224 characters",
  },
  {
    title: "51 session tags",
    object: selector("too-many-tags", { arn: roleArn, sessionTags: tags(51) }),
    field: "spec.sessionTags",
    message: "sessionTags may hold at most 50 tags",
    apiserverMessage: "must have at most 50 items",
  },
  {
    title: "48 session tags with tenantSessionTags",
    object: selector("tenant-too-many", { arn: roleArn, sessionTags: tags(48), tenantSessionTags: true }),
    field: "spec.sessionTags",
    message: "sessionTags may hold at most 47 tags when tenantSessionTags is true",
  },
  {
    title: "a session tag key repeated",
    object: selector("dup-tag", {
      arn: roleArn,
      sessionTags: [
        { key: "team", value: "a" },
        { key: "team", value: "b" },
      ],
    }),
    field: "spec.sessionTags[1]",
    message: "sessionTags must not repeat a key",
    apiserverMessage: "Duplicate value",
  },
  {
    title: "a session tag key in the aws: namespace",
    object: selector("aws-tag", { arn: roleArn, sessionTags: [{ key: "AWS:team", value: "a" }] }),
    field: "spec.sessionTags[0].key",
    message: "sessionTags key must not start with 'aws:'",
  },
  {
    title: "a session tag value over 256 characters",
    object: selector("long-tag", { arn: roleArn, sessionTags: [{ key: "team", value: "v".repeat(257) }] }),
    field: "spec.sessionTags[0].value",
    message: "sessionTags value must be 0-256 characters",
    // The apiserver skips CEL rules on a value that already broke maxLength.
    apiserverMessage: "Too long: may not be more than 256",
  },
  {
    title: "a tenant tag key set by hand with tenantSessionTags",
    object: selector("tenant-clash", {
      arn: roleArn,
      tenantSessionTags: true,
      sessionTags: [{ key: "kubernetes-namespace", value: "x" }],
    }),
    field: "spec.sessionTags",
    message: "sessionTags must not set kubernetes-namespace",
  },
  {
    title: "transitiveTagKeys naming a key that is not a session tag",
    object: selector("transitive", {
      arn: roleArn,
      sessionTags: [{ key: "team", value: "a" }],
      transitiveTagKeys: ["cost"],
    }),
    field: "spec.transitiveTagKeys",
    message: "transitiveTagKeys must only name keys that are in sessionTags",
  },
  {
    title: "resourceTypeSelector entry mixing both forms",
    object: selector("mixed", {
      arn: roleArn,
      resourceTypeSelector: [
        { apiVersion: "s3.services.k8s.aws/v1alpha1", group: "s3.services.k8s.aws", kind: "Bucket" },
      ],
    }),
    field: "spec.resourceTypeSelector[0]",
    message: "resourceTypeSelector entries must use exactly one form",
  },
  {
    title: "resourceTypeSelector entry with only a kind",
    object: selector("kind-only", { arn: roleArn, resourceTypeSelector: [{ kind: "Bucket" }] }),
    field: "spec.resourceTypeSelector[0]",
    message: "resourceTypeSelector entries need apiVersion",
  },
  {
    title: "resourceTypeSelector apiVersion that is not group/version",
    object: selector("bad-apiversion", {
      arn: roleArn,
      resourceTypeSelector: [{ apiVersion: "S3 Buckets" }],
    }),
    field: "spec.resourceTypeSelector[0].apiVersion",
    message: "resourceTypeSelector apiVersion must look like <group>/<version>",
  },
  {
    title: "namespaceSelector.names repeating a namespace",
    object: selector("dup-names", { arn: roleArn, namespaceSelector: { names: ["shop", "shop"] } }),
    field: "spec.namespaceSelector.names[1]",
    message: "namespaceSelector.names must not repeat a namespace",
    apiserverMessage: "Duplicate value",
  },
  {
    title: "namespaceSelector.names with an invalid namespace name",
    object: selector("bad-names", { arn: roleArn, namespaceSelector: { names: ["Shop_1"] } }),
    field: "spec.namespaceSelector.names[0]",
    message: "namespaceSelector.names must be namespace names",
  },
  {
    title: "label selector In without values",
    object: selector("in-no-values", {
      arn: roleArn,
      namespaceSelector: { labelSelector: { matchExpressions: [{ key: "env", operator: "In" }] } },
    }),
    field: "spec.namespaceSelector.labelSelector.matchExpressions[0].values",
    message: "matchExpressions values must list at least one value when operator is In or NotIn",
  },
  {
    title: "label selector Exists with values",
    object: selector("exists-values", {
      arn: roleArn,
      resourceLabelSelector: { matchExpressions: [{ key: "env", operator: "Exists", values: ["x"] }] },
    }),
    field: "spec.resourceLabelSelector.matchExpressions[0].values",
    message: "matchExpressions values must be empty when operator is Exists or DoesNotExist",
  },
  {
    title: "label selector with an unknown operator",
    object: selector("bad-operator", {
      arn: roleArn,
      resourceLabelSelector: { matchExpressions: [{ key: "env", operator: "Equals", values: ["x"] }] },
    }),
    field: "spec.resourceLabelSelector.matchExpressions[0].operator",
    message: "matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist",
    apiserverMessage: "Unsupported value",
  },
  // ---- identities ----
  {
    title: "AWSControllerIdentity not named default",
    object: identity("AWSControllerIdentity", "mine", { allowedNamespaces: {} }),
    field: "metadata.name",
    message: "metadata.name of an AWSControllerIdentity must be 'default'",
    // A CEL rule cannot point into metadata, so the apiserver reports it at the root.
    apiserverField: "<nil>",
  },
  {
    title: "AWSStaticIdentity without secretRef",
    object: identity("AWSStaticIdentity", "no-secret", { allowedNamespaces: {} }),
    field: "spec.secretRef",
    message: "secretRef is required",
    apiserverMessage: "Required value",
  },
  {
    title: "AWSStaticIdentity allowedNamespaces.list with an invalid name",
    object: identity("AWSStaticIdentity", "bad-list", {
      secretRef: "keys",
      allowedNamespaces: { list: ["-shop"] },
    }),
    field: "spec.allowedNamespaces.list[0]",
    message: "allowedNamespaces.list must be namespace names",
  },
  {
    title: "AWSStaticIdentity allowedNamespaces.list repeating a namespace",
    object: identity("AWSStaticIdentity", "dup-list", {
      secretRef: "keys",
      allowedNamespaces: { list: ["a", "a"] },
    }),
    field: "spec.allowedNamespaces.list[1]",
    message: "allowedNamespaces.list must not repeat a namespace",
    apiserverMessage: "Duplicate value",
  },
  {
    title: "AWSRoleIdentity without sourceIdentityRef",
    object: identity("AWSRoleIdentity", "no-source", { roleARN: roleArn }),
    field: "spec.sourceIdentityRef",
    message: "sourceIdentityRef is required",
    apiserverMessage: "Required value",
  },
  {
    title: "AWSRoleIdentity sourceIdentityRef of an unknown kind",
    object: identity(
      "AWSRoleIdentity",
      "bad-source-kind",
      roleIdentitySpec({ sourceIdentityRef: { kind: "Secret", name: "x" } }),
    ),
    field: "spec.sourceIdentityRef.kind",
    message: "sourceIdentityRef.kind must be one of AWSControllerIdentity",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "AWSRoleIdentity naming itself as its source",
    object: identity(
      "AWSRoleIdentity",
      "loop",
      roleIdentitySpec({ sourceIdentityRef: { kind: "AWSRoleIdentity", name: "loop" } }),
    ),
    field: "spec.sourceIdentityRef",
    message: "spec.sourceIdentityRef must not name this AWSRoleIdentity itself",
  },
  {
    title: "AWSRoleIdentity roleARN that is a policy ARN",
    object: identity(
      "AWSRoleIdentity",
      "bad-role",
      roleIdentitySpec({ roleARN: "arn:aws:iam::aws:policy/ReadOnlyAccess" }),
    ),
    field: "spec.roleARN",
    message: "roleARN must be an IAM role ARN",
  },
  {
    title: "AWSRoleIdentity policyARNs entry that is a role ARN",
    object: identity("AWSRoleIdentity", "bad-policy", roleIdentitySpec({ policyARNs: [roleArn] })),
    field: "spec.policyARNs[0]",
    message: "policyARNs entries must be IAM managed policy ARNs",
  },
  {
    title: "AWSRoleIdentity with 11 policyARNs",
    object: identity(
      "AWSRoleIdentity",
      "many-policies",
      roleIdentitySpec({
        policyARNs: Array.from({ length: 11 }, (_, i) => `arn:aws:iam::aws:policy/P${i}`),
      }),
    ),
    field: "spec.policyARNs",
    message: "policyARNs may hold at most 10 policy ARNs",
    apiserverMessage: "must have at most 10 items",
  },
  {
    title: "AWSRoleIdentity sourceIdentity with a space",
    object: identity(
      "AWSRoleIdentity",
      "bad-source-identity",
      roleIdentitySpec({ sourceIdentity: "alice smith" }),
    ),
    field: "spec.sourceIdentity",
    message: "sourceIdentity must be 2-64 characters",
  },
  {
    title: "AWSRoleIdentity durationSeconds above 43200",
    object: identity("AWSRoleIdentity", "long-role", roleIdentitySpec({ durationSeconds: 86400 })),
    field: "spec.durationSeconds",
    message: "durationSeconds must be between 900 and 43200",
  },
  {
    title: "AWSServiceAccountIdentity expirationSeconds below 600",
    object: identity(
      "AWSServiceAccountIdentity",
      "short-token",
      saIdentitySpec({ expirationSeconds: 599 }),
      exampleNamespace,
    ),
    field: "spec.expirationSeconds",
    message: "expirationSeconds must be between 600 and 4294967296",
  },
  {
    title: "AWSServiceAccountIdentity with no audiences",
    object: identity(
      "AWSServiceAccountIdentity",
      "no-audience",
      saIdentitySpec({ audiences: [] }),
      exampleNamespace,
    ),
    field: "spec.audiences",
    message: "audiences must list at least one audience",
    apiserverMessage: "should have at least 1 items",
  },
  {
    title: "AWSServiceAccountIdentity serviceAccountName that is not a name",
    object: identity(
      "AWSServiceAccountIdentity",
      "bad-sa",
      saIdentitySpec({ serviceAccountName: "Shop App" }),
      exampleNamespace,
    ),
    field: "spec.serviceAccountName",
    message: "serviceAccountName must be a Kubernetes object name",
  },
  // ---- resources ----
  {
    title: "Bucket identityRef of an unknown kind",
    object: {
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: { name: "bad-ref", namespace: exampleNamespace },
      spec: { name: "bad-ref", identityRef: { kind: "IAMRole", name: "x" } },
    },
    field: "spec.identityRef.kind",
    message: "identityRef.kind must be one of AWSControllerIdentity",
    apiserverMessage: "Unsupported value",
  },
];
