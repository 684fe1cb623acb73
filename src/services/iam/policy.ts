// The Policy kind: its declaration (policy-declaration.ts) served by the generic runtime, with
// IAM's versions as hooks: a policy keeps at most five, so the oldest one other than the default
// goes before a new one is made; and every one but the default goes before the policy itself (IAM
// refuses to delete a policy with others). ACK adopts a policy by its ARN.
import type { IAMClient } from "@aws-sdk/client-iam";
import * as iamSdk from "@aws-sdk/client-iam";
import { requireKind } from "../../api/resource.ts";
import { parseRegionalArn } from "../arn.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { seedFromAddress } from "../service-module-parts.ts";
import { iamClientFactory } from "./client.ts";
import { policyGenerated } from "./generated/policy-fields.ts";
import { policyDeclaration } from "./policy-declaration.ts";

const kind = requireKind("iam.services.k8s.aws/v1alpha1", "Policy");

/** IAM's quota of versions per managed policy. */
const versionsKept = 5;

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({ kind, declaration: policyDeclaration, generated: policyGenerated });

export const { crdSource: policyCrdSource } = schemas;

interface Version {
  readonly VersionId?: string;
  readonly IsDefaultVersion?: boolean;
  readonly CreateDate?: Date | string;
}

/** Every version of the policy, page by page; none when the policy is gone (its delete then says so). */
async function versionsOf(ask: Ask, address: Fields): Promise<Version[]> {
  const all: Version[] = [];
  let marker: unknown;
  do {
    const answer = await ask(
      "ListPolicyVersions",
      { ...address, ...(marker === undefined ? {} : { Marker: marker }) },
      { unlessGone: true },
    );
    all.push(...((answer?.["Versions"] as Version[] | undefined) ?? []));
    marker = answer?.["IsTruncated"] === true ? answer["Marker"] : undefined;
  } while (marker !== undefined);
  return all;
}

const createdAt = (v: Version) => new Date(v.CreateDate ?? 0).getTime();

/** The versions other than the default, oldest first. */
const others = (versions: readonly Version[]) =>
  versions
    .filter((v) => v.IsDefaultVersion !== true && v.VersionId !== undefined)
    .sort((a, b) => createdAt(a) - createdAt(b));

/** The region-less ARN's account, path and name (`arn:aws:iam::<account>:policy/<path>/<name>`). */
function parsePolicyArn(arn: string): { account: string; name: string; path: string } | undefined {
  const parts = parseRegionalArn(arn, "iam");
  const resource = parts?.resource.join(":") ?? "";
  if (parts === undefined || !resource.startsWith("policy/")) return undefined;
  const steps = resource.slice("policy/".length).split("/");
  const name = steps.pop() ?? "";
  return { account: parts.account, name, path: steps.length === 0 ? "/" : `/${steps.join("/")}/` };
}

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const policySource = {
  kind,
  declaration: policyDeclaration,
  generated: policyGenerated,
  schemas,
  sdk: iamSdk,
  clientFactory: iamClientFactory,
  hooks: {
    beforeSet: {
      // Five versions already: the oldest one that is not the default makes room for the new one.
      CreatePolicyVersion: async (ask, address) => {
        const versions = await versionsOf(ask, address);
        const [oldest] = others(versions);
        if (versions.length >= versionsKept && oldest !== undefined)
          await ask("DeletePolicyVersion", { ...address, VersionId: oldest.VersionId });
      },
    },
    // IAM deletes the default version with the policy, and refuses while it has others.
    beforeDelete: async (ask, address) => {
      for (const v of others(await versionsOf(ask, address)))
        await ask("DeletePolicyVersion", { ...address, VersionId: v.VersionId }, { unlessGone: true });
    },
    // ACK's adoption names a policy by its ARN (its key), which must be in the resource's account.
    adoptionSeed: (fields, at) => {
      const arn = fields["arn"];
      if (arn === undefined) {
        return fields["name"] === undefined
          ? { ok: false, message: 'names no arn: write {"arn": "<the policy\'s ARN>"} (ACK\'s key)' }
          : { ok: true, value: { name: fields["name"] } };
      }
      const located = parsePolicyArn(arn);
      const seed = seedFromAddress("arn", arn, located, "name", at);
      return seed.ok && located !== undefined
        ? { ok: true, value: { ...seed.value, path: located.path } }
        : seed;
    },
  },
} satisfies DeclaredKindSource<IAMClient>;

export const policyService = declaredKindModule(policySource);
