// fast-check generators for the resolver's property test: random but *colliding*
// configurations (names, accounts and keys come from small pools so that selectors overlap,
// identities reference each other, maps disagree) mixed with garbage of every kind the issue
// lists — malformed ARNs and account IDs, cycles, dangling refs, duplicate names, garbage keys.

import fc from "fast-check";
import type { ConfigObjects, FeatureGates, ResourceObject, Settings } from "../../src/resolver/types.ts";

const identityApiVersion = "identity.crossrole.dev/v1alpha1";

export const namespaceNames = ["a", "b", "c", "shop"] as const;
const teams = ["t1", "t2", "bad team"] as const;
const accounts = ["111111111111", "222222222222", "999999999999", "123", "abc", ""] as const;
const goodAccounts = ["111111111111", "222222222222", "999999999999"] as const;
const identityNames = ["r1", "r2", "r3", "default", "keys", "sa"] as const;
const selectorNames = ["s1", "s2", "s3", "s4"] as const;
const services = ["s3", "sqs", "rds"] as const;

const account = fc.constantFrom(...accounts);
const goodAccount = fc.constantFrom(...goodAccounts);
const roleArn = fc.oneof(
  { weight: 6, arbitrary: goodAccount.map((a) => `arn:aws:iam::${a}:role/r-${a.slice(0, 1)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "arn:aws:iam::12:role/x",
      "arn:aws:s3:::b",
      "not-an-arn",
      "arn:aws:iam::111111111111:user/u",
    ),
  },
);
const labelValue = fc.constantFrom("x", "y");
const labels = fc.dictionary(fc.constantFrom("team", "env"), labelValue, { maxKeys: 2 });

const labelSelector = fc.oneof(
  { weight: 4, arbitrary: fc.record({ matchLabels: labels }) },
  {
    weight: 3,
    arbitrary: fc.record({
      matchExpressions: fc.array(
        fc.record({
          key: fc.constantFrom("team", "env"),
          operator: fc.constantFrom("In", "NotIn", "Exists", "DoesNotExist"),
          values: fc.array(labelValue, { maxLength: 2 }),
        }),
        { maxLength: 2 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ matchLabels: { "bad key!": "x" } }) },
);

/** `arb` or absent, in the ratio absentWeight : presentWeight. */
function maybe<T>(arb: fc.Arbitrary<T>, absentWeight = 1, presentWeight = 1): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { weight: absentWeight, arbitrary: fc.constant(undefined) },
    { weight: presentWeight, arbitrary: arb },
  );
}

/** Drops undefined fields so that "absent" is really absent. */
function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const namespaceObject = (name: fc.Arbitrary<string>) =>
  fc
    .record({
      name,
      labels,
      owner: maybe(fc.oneof({ weight: 6, arbitrary: goodAccount }, { weight: 1, arbitrary: account }), 2),
      team: maybe(fc.constantFrom(...teams), 2),
      region: maybe(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom("eu-west-1", "us-east-1") },
          { weight: 1, arbitrary: fc.constant("moon") },
        ),
        3,
      ),
      endpoint: maybe(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant("https://ns.example.com") },
          { weight: 1, arbitrary: fc.constant("ftp://x") },
        ),
        6,
      ),
      allowed: maybe(
        fc.constantFrom("111111111111", "111111111111,222222222222", "222222222222, xyz", ""),
        2,
      ),
    })
    .map(({ name, labels, owner, team, region, endpoint, allowed }) => ({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name,
        labels,
        annotations: compact({
          "services.k8s.aws/owner-account-id": owner,
          "services.k8s.aws/team-id": team,
          "services.k8s.aws/default-region": region,
          "services.k8s.aws/endpoint-url": endpoint,
          "services.k8s.aws/allowed-owner-account-ids": allowed,
        }),
      },
    }));

const garbageKey = fc.constantFrom(
  "garbage/key",
  "owner-account-id/",
  "team-id/",
  "x y",
  "team-id/t1/colour",
);
const service = fc.constantFrom(...services);
const team = fc.constantFrom(...teams);
const accountKey = fc.oneof(
  account,
  fc.tuple(service, account).map(([s, a]) => `${s}.${a}`),
);
const teamKey = fc.oneof(
  team,
  fc.tuple(service, team).map(([s, t]) => `${s}.${t}`),
);

/** Keys each map is meant to hold (mostly), plus keys of the other maps and garbage. */
const carmKeys: Record<string, fc.Arbitrary<string>> = {
  "ack-role-account-map": fc.oneof(
    { weight: 8, arbitrary: accountKey },
    { weight: 1, arbitrary: teamKey },
    { weight: 1, arbitrary: garbageKey },
  ),
  "ack-role-team-map": fc.oneof({ weight: 8, arbitrary: teamKey }, { weight: 1, arbitrary: garbageKey }),
  "ack-carm-map": fc.oneof(
    { weight: 4, arbitrary: accountKey.map((k) => `owner-account-id/${k}`) },
    { weight: 3, arbitrary: teamKey.map((k) => `team-id/${k}`) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(team, fc.constantFrom("role-arn", "endpoint", "external-id"))
        .map(([t, sub]) => `team-id/${t}/${sub}`),
    },
    { weight: 1, arbitrary: garbageKey },
  ),
  unrelated: garbageKey,
};

const carmValue = fc.oneof(
  { weight: 8, arbitrary: roleArn },
  { weight: 1, arbitrary: fc.constantFrom("https://team.example.com", "ext-id-1", "") },
);

const configMapObject = fc
  .record({
    name: fc.constantFrom("ack-role-account-map", "ack-role-team-map", "ack-carm-map", "unrelated"),
    namespace: fc.oneof(
      { weight: 6, arbitrary: fc.constant("ack-system") },
      { weight: 1, arbitrary: fc.constant("shop") },
    ),
  })
  .chain(({ name, namespace }) =>
    fc
      .dictionary(carmKeys[name]!, carmValue, { maxKeys: 6 })
      .map((data) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data })),
  );

const resourceType = fc.oneof(
  fc.record({
    apiVersion: fc.constantFrom("s3.services.k8s.aws/v1alpha1", "rds.services.k8s.aws/v1alpha1"),
    kind: maybe(fc.constantFrom("Bucket", "DBInstance", "Queue")),
  }),
  fc.record({
    group: fc.constantFrom("", "s3.services.k8s.aws", "sqs.services.k8s.aws"),
    version: fc.constantFrom("", "v1alpha1", "v2"),
    kind: fc.constantFrom("", "Bucket", "Queue"),
  }),
);

const selectorObject = fc
  .record({
    name: fc.constantFrom(...selectorNames),
    resourceVersion: fc.constantFrom("1", "2"),
    arn: roleArn,
    names: maybe(
      fc.oneof(
        { weight: 8, arbitrary: fc.uniqueArray(fc.constantFrom(...namespaceNames), { maxLength: 3 }) },
        { weight: 1, arbitrary: fc.constant(["a", "a"]) },
      ),
    ),
    nsLabels: maybe(labelSelector),
    types: maybe(fc.array(resourceType, { maxLength: 2 })),
    resLabels: maybe(labelSelector),
    externalID: maybe(
      fc.oneof({ weight: 6, arbitrary: fc.constant("ext-1") }, { weight: 1, arbitrary: fc.constant("x") }),
      2,
    ),
  })
  .map(({ name, resourceVersion, arn, names, nsLabels, types, resLabels, externalID }) => ({
    apiVersion: "services.k8s.aws/v1alpha1",
    kind: "IAMRoleSelector",
    metadata: { name, resourceVersion },
    spec: compact({
      arn,
      namespaceSelector:
        names === undefined && nsLabels === undefined
          ? undefined
          : compact({ names, labelSelector: nsLabels }),
      resourceTypeSelector: types,
      resourceLabelSelector: resLabels,
      externalID,
    }),
  }));

const allowedNamespaces = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.constant({}) },
  {
    weight: 4,
    arbitrary: fc.record({ list: fc.uniqueArray(fc.constantFrom(...namespaceNames), { maxLength: 3 }) }),
  },
  { weight: 3, arbitrary: fc.record({ selector: labelSelector }) },
  { weight: 1, arbitrary: fc.record({ list: fc.constant(["NOT-VALID_"]) }) },
);

const identityRefValue = fc.record({
  kind: fc.oneof(
    { weight: 5, arbitrary: fc.constant("AWSRoleIdentity") },
    { weight: 2, arbitrary: fc.constantFrom("AWSControllerIdentity", "AWSServiceAccountIdentity") },
    { weight: 1, arbitrary: fc.constantFrom("AWSStaticIdentity", "Bogus") },
  ),
  name: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("r1", "r2", "default") },
    { weight: 1, arbitrary: fc.constantFrom(...identityNames) },
  ),
});

const identityName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("r1", "r2", "r3") },
  { weight: 1, arbitrary: fc.constantFrom(...identityNames) },
);

const controllerIdentityObject = fc
  .record({
    allowed: allowedNamespaces,
    name: fc.oneof(
      { weight: 5, arbitrary: fc.constant("default") },
      { weight: 1, arbitrary: fc.constant("other") },
    ),
  })
  .map(({ allowed, name }) => ({
    apiVersion: identityApiVersion,
    kind: "AWSControllerIdentity",
    metadata: { name },
    spec: compact({ allowedNamespaces: allowed }),
  }));

const staticIdentityObject = fc
  .record({ name: identityName, allowed: allowedNamespaces })
  .map(({ name, allowed }) => ({
    apiVersion: identityApiVersion,
    kind: "AWSStaticIdentity",
    metadata: { name },
    spec: compact({ secretRef: "aws-keys", allowedNamespaces: allowed }),
  }));

const roleIdentityObject = fc
  .record({
    name: identityName,
    arn: roleArn,
    source: fc.oneof(
      { weight: 2, arbitrary: fc.constant({ kind: "AWSControllerIdentity", name: "default" }) },
      { weight: 3, arbitrary: identityRefValue },
    ),
    allowed: allowedNamespaces,
    sessionName: maybe(
      fc.oneof({ weight: 5, arbitrary: fc.constant("named") }, { weight: 1, arbitrary: fc.constant("x") }),
      3,
    ),
  })
  .map(({ name, arn, source, allowed, sessionName }) => ({
    apiVersion: identityApiVersion,
    kind: "AWSRoleIdentity",
    metadata: { name },
    spec: compact({ roleARN: arn, sourceIdentityRef: source, allowedNamespaces: allowed, sessionName }),
  }));

const serviceAccountIdentityObject = fc
  .record({ name: identityName, namespace: fc.constantFrom(...namespaceNames, ""), arn: roleArn })
  .map(({ name, namespace, arn }) => ({
    apiVersion: identityApiVersion,
    kind: "AWSServiceAccountIdentity",
    metadata: compact({ name, namespace: namespace === "" ? undefined : namespace }),
    spec: { roleARN: arn, serviceAccountName: "app" },
  }));

const identityObject = fc.oneof(
  { weight: 1, arbitrary: controllerIdentityObject },
  { weight: 1, arbitrary: staticIdentityObject },
  { weight: 5, arbitrary: roleIdentityObject },
  { weight: 2, arbitrary: serviceAccountIdentityObject },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      null,
      42,
      { kind: "AWSRoleIdentity" },
      { kind: "AWSRoleIdentity", metadata: { name: "r1" }, spec: "x" },
    ),
  },
);

/** Most namespaces exist once; some are missing, some listed twice (differently). */
const namespaceObjects = fc
  .tuple(
    ...namespaceNames.map((n) => maybe(namespaceObject(fc.constant(n)), 1, 6)),
    maybe(namespaceObject(fc.constantFrom(...namespaceNames)), 8, 1),
  )
  .map(([...parts]) => parts.flat().filter((o) => o !== undefined));

/** Mostly one object per name; now and then a second, different one with the same name. */
function mostlyUnique<T>(
  arb: fc.Arbitrary<T>,
  keyOf: (o: T) => string,
  maxLength: number,
): fc.Arbitrary<T[]> {
  return fc
    .tuple(fc.uniqueArray(arb, { selector: keyOf, maxLength }), maybe(arb, 6, 1))
    .map(([unique, extra]) => (extra === undefined ? unique : [...unique, extra]));
}

const identityKeyOf = (o: unknown): string => {
  const r = o as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
  return `${String(r?.kind)}/${String(r?.metadata?.namespace)}/${String(r?.metadata?.name)}`;
};

export const configObjects: fc.Arbitrary<ConfigObjects> = fc.record({
  namespaces: namespaceObjects,
  configMaps: mostlyUnique(configMapObject, (o) => `${o.metadata.namespace}/${o.metadata.name}`, 4),
  iamRoleSelectors: mostlyUnique(selectorObject, (o) => o.metadata.name, 4),
  identities: mostlyUnique(identityObject, identityKeyOf, 8),
});

const kinds: readonly [string, string][] = [
  ["s3.services.k8s.aws/v1alpha1", "Bucket"],
  ["sqs.services.k8s.aws/v1alpha1", "Queue"],
  ["rds.services.k8s.aws/v1alpha1", "DBInstance"],
  ["example.com/v1", "Widget"],
];

export const resourceAndNamespace: fc.Arbitrary<{ resource: ResourceObject; namespace: string }> = fc
  .record({
    type: fc.constantFrom(...kinds),
    namespace: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...namespaceNames) },
      { weight: 1, arbitrary: fc.constant("missing") },
    ),
    labels,
    region: maybe(fc.constantFrom("eu-west-1", "us-west-2", "mars"), 3),
    owner: maybe(account, 3),
    pick: maybe(fc.constantFrom(...selectorNames, "nope"), 3),
    identityRef: maybe(
      fc.oneof(
        { weight: 8, arbitrary: identityRefValue },
        { weight: 1, arbitrary: fc.constantFrom<unknown>("x", { kind: 5 }, {}) },
      ),
      2,
    ),
    statusAccount: maybe(account, 3),
    statusRegion: maybe(fc.constantFrom("eu-west-1", "us-east-1"), 3),
    garbage: fc.oneof(
      { weight: 30, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
  })
  .map((r) => {
    if (r.garbage)
      return {
        resource: { kind: "Bucket", metadata: {} } as unknown as ResourceObject,
        namespace: r.namespace,
      };
    const resource = {
      apiVersion: r.type[0],
      kind: r.type[1],
      metadata: {
        name: "res",
        namespace: r.namespace,
        labels: r.labels,
        annotations: compact({
          "services.k8s.aws/region": r.region,
          "services.k8s.aws/owner-account-id": r.owner,
          "services.k8s.aws/iam-role-selector": r.pick,
        }),
      },
      spec: compact({ identityRef: r.identityRef }),
      status: { ackResourceMetadata: compact({ ownerAccountID: r.statusAccount, region: r.statusRegion }) },
    };
    return { resource: resource as unknown as ResourceObject, namespace: r.namespace };
  });

export const settings: fc.Arbitrary<Settings> = fc
  .record({
    IAMRoleSelector: fc.boolean(),
    TeamLevelCARM: fc.boolean(),
    ServiceLevelCARM: fc.boolean(),
    ResourceLevelCARM: fc.boolean(),
    enableCARM: fc.oneof(
      { weight: 12, arbitrary: fc.constant("consistent") },
      { weight: 1, arbitrary: fc.constantFrom("on", "off") },
    ),
    controllerAccount: fc.constantFrom<string | null>("999999999999", null),
    defaultRegion: fc.oneof(
      { weight: 6, arbitrary: fc.constant("eu-west-1") },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
    defaultEndpoint: fc.constantFrom<string | null>(null, "https://flag.example.com"),
    accountDriftPolicy: fc.constantFrom<"block" | "recreate">("block", "recreate"),
  })
  .map((s) => {
    const featureGates: FeatureGates = {
      IAMRoleSelector: s.IAMRoleSelector,
      TeamLevelCARM: s.TeamLevelCARM,
      ServiceLevelCARM: s.ServiceLevelCARM,
      ResourceLevelCARM: s.ResourceLevelCARM,
    };
    return {
      featureGates,
      enableCARM: s.enableCARM === "consistent" ? !s.IAMRoleSelector : s.enableCARM === "on",
      defaultRegion: s.defaultRegion,
      defaultEndpoint: s.defaultEndpoint,
      controllerAccount: s.controllerAccount,
      systemNamespace: "ack-system",
      accountDriftPolicy: s.accountDriftPolicy,
    };
  });

/** A deterministic permutation of `items` from `seed` (Fisher–Yates over a small LCG). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The same objects in another order, ConfigMap data keys included. */
export function reordered(objects: ConfigObjects, seed: number): ConfigObjects {
  const reorderData = (cm: unknown): unknown => {
    if (typeof cm !== "object" || cm === null || !("data" in cm)) return cm;
    const data = (cm as { data: Record<string, unknown> }).data;
    const keys = shuffled(Object.keys(data), seed + 7);
    return { ...cm, data: Object.fromEntries(keys.map((k) => [k, data[k]])) };
  };
  return {
    namespaces: shuffled(objects.namespaces ?? [], seed),
    configMaps: shuffled(objects.configMaps ?? [], seed + 1).map(reorderData),
    iamRoleSelectors: shuffled(objects.iamRoleSelectors ?? [], seed + 2),
    identities: shuffled(objects.identities ?? [], seed + 3),
  };
}
