// The VPC kind: its declaration (vpc-declaration.ts) served by the generic runtime, with EC2's
// quirks as hooks: the CIDR blocks (the first given to CreateVpc, the others associated, and
// disassociated by the association ID only the VPC's answer holds), ACK's rule that empties the
// VPC's default security group, and the tag filter that finds a VPC EC2 named (tagged.ts).
import type { EC2Client } from "@aws-sdk/client-ec2";
import * as ec2Sdk from "@aws-sdk/client-ec2";
import { z } from "zod";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { ec2ClientFactory } from "./client.ts";
import { vpcGenerated } from "./generated/vpc-fields.ts";
import { taggedBy } from "./tagged.ts";
import { vpcDeclaration } from "./vpc-declaration.ts";

const kind = requireKind("ec2.services.k8s.aws/v1alpha1", "VPC");

/** Whether the default security group has rules: ACK's status field, read only when the spec asks. */
const rulesExist = "SecurityGroupDefaultRulesExist";

const schemas = declaredKindSchemas(
  { kind, declaration: vpcDeclaration, generated: vpcGenerated },
  {
    values: {
      // ACK's too: a VPC has a primary block.
      cidrBlocks: z
        .array(z.string())
        .min(1, "cidrBlocks: give the VPC's primary IPv4 CIDR block first (10.0.0.0/16)"),
    },
    status: {
      securityGroupDefaultRulesExist: z
        .boolean()
        .optional()
        .describe(
          "Whether the VPC's default security group has rules (read when spec.disallowSecurityGroupDefaultRules is set).",
        ),
    },
  },
);

export const { crdSource: vpcCrdSource } = schemas;

interface Association {
  readonly AssociationId?: string;
  readonly CidrBlock?: string;
  readonly CidrBlockState?: { readonly State?: string };
}

/** The VPC's IPv4 blocks that are (or are becoming) associated, in EC2's order: the primary first. */
const associated = (answer: Fields): Association[] =>
  ((answer["CidrBlockAssociationSet"] as Association[] | undefined) ?? []).filter((a) =>
    ["associated", "associating"].includes(a.CidrBlockState?.State ?? "associated"),
  );

/** The VPC `id` as EC2 answers it now (its association IDs), or undefined when it went. */
async function vpcNamed(ask: Ask, id: string): Promise<Fields | undefined> {
  const answer = await ask("DescribeVpcs", { VpcIds: [id] }, { unlessGone: true });
  return ((answer?.["Vpcs"] as Fields[] | undefined) ?? []).find((v) => v["VpcId"] === id);
}

/** Each block the spec adds associated, then each one it dropped disassociated (never the primary's place). */
async function writeCidrBlocks(ask: Ask, id: string, desired: Fields): Promise<void> {
  const want = (desired["cidrBlocks"] as string[] | undefined) ?? [];
  const vpc = await vpcNamed(ask, id);
  if (vpc === undefined) return;
  const have = associated(vpc);
  for (const block of want.filter((b) => !have.some((a) => a.CidrBlock === b)))
    await ask("AssociateVpcCidrBlock", { VpcId: id, CidrBlock: block }, { field: "spec.cidrBlocks" });
  for (const a of have.filter((a) => a.CidrBlock !== undefined && !want.includes(a.CidrBlock)))
    await ask("DisassociateVpcCidrBlock", { AssociationId: a.AssociationId }, { field: "spec.cidrBlocks" });
}

interface SecurityGroup {
  readonly GroupId?: string;
  readonly GroupName?: string;
  readonly VpcId?: string;
  readonly IpPermissions?: unknown[];
  readonly IpPermissionsEgress?: unknown[];
}

/** The VPC's default security group (every VPC has one, named "default"), or undefined. */
async function defaultGroup(ask: Ask, id: string): Promise<SecurityGroup | undefined> {
  const answer = await ask("DescribeSecurityGroups", {
    Filters: [
      { Name: "vpc-id", Values: [id] },
      { Name: "group-name", Values: ["default"] },
    ],
  });
  // Only the one the filter named: never another group's rules.
  return ((answer?.["SecurityGroups"] as SecurityGroup[] | undefined) ?? []).find(
    (g) => g.VpcId === id && g.GroupName === "default",
  );
}

/** Every rule of the default security group revoked, inbound then outbound (ACK's rule). */
async function emptyDefaultGroup(ask: Ask, id: string, desired: Fields): Promise<void> {
  if (desired["disallowSecurityGroupDefaultRules"] !== true) return;
  const group = await defaultGroup(ask, id);
  const field = { field: "spec.disallowSecurityGroupDefaultRules" };
  if (group?.GroupId === undefined) return;
  if ((group.IpPermissions ?? []).length > 0)
    await ask(
      "RevokeSecurityGroupIngress",
      { GroupId: group.GroupId, IpPermissions: group.IpPermissions },
      field,
    );
  if ((group.IpPermissionsEgress ?? []).length > 0)
    await ask(
      "RevokeSecurityGroupEgress",
      { GroupId: group.GroupId, IpPermissions: group.IpPermissionsEgress },
      field,
    );
}

/** What the runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const vpcSource = {
  kind,
  declaration: vpcDeclaration,
  generated: vpcGenerated,
  schemas,
  sdk: ec2Sdk,
  clientFactory: ec2ClientFactory,
  hooks: {
    findTagged: taggedBy("DescribeVpcs", "Vpcs", "VpcId"),
    // The first block is the VPC's primary one, given to CreateVpc; the others are associated after.
    createInput: (input, spec) => ({
      ...input,
      CidrBlock: (spec["cidrBlocks"] as string[] | undefined)?.[0],
    }),
    answerMore: async (ask, answer, spec) => {
      const id = answer["VpcId"];
      if (spec["disallowSecurityGroupDefaultRules"] === undefined || typeof id !== "string") return {};
      const group = await defaultGroup(ask, id);
      if (group === undefined) return {};
      return {
        [rulesExist]: (group.IpPermissions ?? []).length + (group.IpPermissionsEgress ?? []).length > 0,
      };
    },
    fieldsFromAnswer: (answer) => ({
      cidrBlocks: associated(answer).flatMap((a) => (a.CidrBlock === undefined ? [] : [a.CidrBlock])),
      disallowSecurityGroupDefaultRules:
        typeof answer[rulesExist] === "boolean" ? !answer[rulesExist] : undefined,
    }),
    statusFromAnswer: (answer): Fields =>
      typeof answer[rulesExist] === "boolean" ? { securityGroupDefaultRulesExist: answer[rulesExist] } : {},
    equal: {
      // Only true asks for something (an empty default group); false leaves its rules alone.
      disallowSecurityGroupDefaultRules: (desired, observed) =>
        desired["disallowSecurityGroupDefaultRules"] !== true ||
        observed["disallowSecurityGroupDefaultRules"] === true,
    },
    writes: {
      AssociateVpcCidrBlock: (ask, id, desired) => writeCidrBlocks(ask, id, desired),
      RevokeSecurityGroupIngress: (ask, id, desired) => emptyDefaultGroup(ask, id, desired),
    },
  },
} satisfies DeclaredKindSource<EC2Client>;

export const vpcService = declaredKindModule(vpcSource);
