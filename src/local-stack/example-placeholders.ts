// Placeholders in examples for what only exists in a real account, filled from the emulator by
// the local stack (the main job, the e2e tests) before applying. In a real account the reader
// writes their own values instead.
// - Subnets: an example that places a database in a VPC must name real subnet IDs, but moto makes
//   each account's default-VPC subnets with random IDs. An example writes
//   `subnet-<account>-<letter>` ("the account's first, second, ... subnet"), replaced with that
//   account's default subnets in the object's region.
// - The default VPC: a subnet or security group made in an account's default VPC writes
//   `vpc-<account>` as its `spec.vpcID`, replaced with that VPC's ID in the object's region.
// - A Lambda function's role: `arn:aws:iam::<account>:role/local-stack-lambda` is kept, and made in
//   that account first (moto's Lambda refuses a role IAM does not hold): execution-role.ts.
// - A KMS key: an Alias whose `spec.targetKeyID` is `key-<account>` points at a key the local
//   stack makes in that account and region once (alias-target-key.ts).
// - Access keys: a static identity's Secret holds `local-stack-keys-for-<account>` as its
//   AccessKeyID and SecretAccessKey, replaced with keys the emulator issues for that account.
import type { KubeObject } from "../runtime/kube-object.ts";
import { credentialsFor } from "./accounts.ts";
import { aliasTargetKey } from "./alias-target-key.ts";
import { region as stackRegion } from "./controller-process.ts";
import { defaultSubnets, defaultVpc } from "./default-subnets.ts";
import { ensureExecutionRole, executionRoleName } from "./execution-role.ts";

const placeholder = /^subnet-(\d{12})-([a-z])$/;
const vpcPlaceholder = /^vpc-(\d{12})$/;
const keyPlaceholder = /^key-(\d{12})$/;
const rolePlaceholder = new RegExp(`^arn:aws:iam::(\\d{12}):role/${executionRoleName}$`);
const regionAnnotation = "services.k8s.aws/default-region";

/** Whether `value` is an example's subnet placeholder. */
export const isSubnetPlaceholder = (value: unknown): boolean =>
  typeof value === "string" && placeholder.test(value);

/**
 * `objects` with every placeholder (see the file comment) replaced. Subnets: a placeholder in a
 * `spec.subnetIDs` list becomes the emulator's subnet, one in `spec.vpcID` its default VPC
 * (the region is the object's `spec.region`, else its namespace's default-region annotation in
 * `objects`, else the stack's). Objects without placeholders are returned as they are.
 */
export async function fillExamplePlaceholders(
  objects: KubeObject[],
  endpoint: string,
): Promise<KubeObject[]> {
  await makeExecutionRoles(objects, endpoint);
  return Promise.all((await fillFromAccounts(objects, endpoint)).map((o) => fillKeys(o, endpoint)));
}

/** The local stack's Lambda role made in each account a Function names it in. */
async function makeExecutionRoles(objects: KubeObject[], endpoint: string): Promise<void> {
  const accounts = new Set(
    objects.flatMap((o) => {
      const role = (o as { spec?: Record<string, unknown> }).spec?.["role"];
      const account = o.kind === "Function" ? rolePlaceholder.exec(String(role ?? ""))?.[1] : undefined;
      return account === undefined ? [] : [account];
    }),
  );
  for (const account of accounts)
    await ensureExecutionRole(endpoint, (await credentialsFor(endpoint, account)).accessKeyId);
}

const keysPlaceholder = /^local-stack-keys-for-(\d{12})$/;

/** A Secret whose AccessKeyID is a keys placeholder, with the emulator's keys for that account. */
async function fillKeys(o: KubeObject, endpoint: string): Promise<KubeObject> {
  const data = (o as { stringData?: Record<string, string> }).stringData;
  const account = o.kind === "Secret" ? keysPlaceholder.exec(data?.["AccessKeyID"] ?? "")?.[1] : undefined;
  if (account === undefined) return o;
  const c = await credentialsFor(endpoint, account);
  return {
    ...o,
    stringData: {
      ...data,
      AccessKeyID: c.accessKeyId,
      SecretAccessKey: c.secretAccessKey,
      ...("sessionToken" in c && c.sessionToken ? { SessionToken: c.sessionToken } : {}),
    },
  } as KubeObject;
}

async function fillFromAccounts(objects: KubeObject[], endpoint: string): Promise<KubeObject[]> {
  const namespaceRegion = new Map(
    objects
      .filter((o) => o.kind === "Namespace" && o.metadata.annotations?.[regionAnnotation])
      .map((o) => [o.metadata.name, o.metadata.annotations?.[regionAnnotation] ?? ""]),
  );
  /** A lookup in an account and region, asked once for all the objects. */
  const once = <T>(look: (endpoint: string, accessKeyId: string, region: string) => Promise<T>) => {
    const asked = new Map<string, Promise<T>>();
    return (account: string, region: string): Promise<T> => {
      const key = `${account}/${region}`;
      const known = asked.get(key);
      if (known !== undefined) return known;
      const answer = credentialsFor(endpoint, account).then((c) => look(endpoint, c.accessKeyId, region));
      asked.set(key, answer);
      return answer;
    };
  };
  const subnetsOf = once(defaultSubnets);
  const vpcOf = once(defaultVpc);
  const keyOf = once(aliasTargetKey);
  return Promise.all(
    objects.map(async (o) => {
      const spec = (o as { spec?: Record<string, unknown> }).spec;
      const region =
        (typeof spec?.["region"] === "string" ? spec["region"] : undefined) ??
        namespaceRegion.get(o.metadata.namespace ?? "") ??
        stackRegion;
      const keyAccount =
        o.kind === "Alias" ? keyPlaceholder.exec(String(spec?.["targetKeyID"] ?? ""))?.[1] : undefined;
      if (keyAccount !== undefined)
        return { ...o, spec: { ...spec, targetKeyID: await keyOf(keyAccount, region) } } as KubeObject;
      const vpcAccount = vpcPlaceholder.exec(String(spec?.["vpcID"] ?? ""))?.[1];
      if (vpcAccount !== undefined) {
        const vpc = await vpcOf(vpcAccount, region);
        if (vpc === undefined)
          throw new Error(
            `${o.kind} ${o.metadata.namespace}/${o.metadata.name}: spec.vpcID names vpc-${vpcAccount}, but account ${vpcAccount} has no default VPC in ${region}`,
          );
        return { ...o, spec: { ...spec, vpcID: vpc } } as KubeObject;
      }
      const ids = spec?.["subnetIDs"];
      if (!Array.isArray(ids) || !ids.some(isSubnetPlaceholder)) return o;
      const filled = await Promise.all(
        ids.map(async (id) => {
          const [, account = "", letter = "a"] = placeholder.exec(String(id)) ?? [];
          if (!account) return id;
          const available = await subnetsOf(account, region);
          const subnet = available[letter.charCodeAt(0) - "a".charCodeAt(0)];
          if (subnet === undefined)
            throw new Error(
              `${o.kind} ${o.metadata.namespace}/${o.metadata.name}: spec.subnetIDs names ${id}, but account ${account} has ${available.length} default subnets in ${region}`,
            );
          return subnet;
        }),
      );
      return { ...o, spec: { ...spec, subnetIDs: filled } } as KubeObject;
    }),
  );
}
