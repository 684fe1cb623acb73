// The SecurityGroup kind: its declaration (security-group-declaration.ts) served by the generic
// runtime, with EC2's quirks as hooks: its rules compared and written grant by grant
// (security-group-rules.ts: revoked, then authorized, then described anew, one call each way),
// ACK's status.rules from DescribeSecurityGroupRules, and the tag filter that finds a group EC2
// named (tagged.ts).
import type { EC2Client } from "@aws-sdk/client-ec2";
import * as ec2Sdk from "@aws-sdk/client-ec2";
import { z } from "zod";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { toAws } from "../shape-codec.ts";
import { ec2ClientFactory } from "./client.ts";
import { securityGroupGenerated } from "./generated/security-group-fields.ts";
import { pages } from "./pages.ts";
import { securityGroupDeclaration } from "./security-group-declaration.ts";
import { merged, rulesPlan, sameRules } from "./security-group-rules.ts";
import { taggedBy } from "./tagged.ts";

const kind = requireKind("ec2.services.k8s.aws/v1alpha1", "SecurityGroup");

/** ACK's status.rules: each rule EC2 keeps (DescribeSecurityGroupRules), one grant each. */
const ruleStatus = z
  .object({
    securityGroupRuleID: z.string().optional().describe("The ID of the security group rule."),
    isEgress: z.boolean().optional().describe("Whether the rule is an outbound rule."),
    ipProtocol: z
      .string()
      .optional()
      .describe("The IP protocol name (tcp, udp, icmp, icmpv6) or number; -1 for all protocols."),
    fromPort: z
      .number()
      .int()
      .optional()
      .describe("The start of the port range (for ICMP, the type); -1 for all."),
    toPort: z
      .number()
      .int()
      .optional()
      .describe("The end of the port range (for ICMP, the code); -1 for all."),
    cidrIPv4: z.string().optional().describe("The IPv4 CIDR range the rule allows."),
    cidrIPv6: z.string().optional().describe("The IPv6 CIDR range the rule allows."),
    prefixListID: z.string().optional().describe("The ID of the prefix list the rule allows."),
    description: z.string().optional().describe("The rule's description."),
    tags: z
      .array(
        z
          .object({
            key: z.string().optional().describe("The key of the tag."),
            value: z.string().optional().describe("The value of the tag."),
          })
          .describe("A tag of the rule."),
      )
      .optional()
      .describe("The tags of the rule."),
  })
  .describe("A rule of the group as EC2 keeps it (one source each).");

const schemas = declaredKindSchemas(
  { kind, declaration: securityGroupDeclaration, generated: securityGroupGenerated },
  {
    status: {
      rules: z
        .array(ruleStatus)
        .optional()
        .describe("The group's rules, one grant each, as EC2 lists them (DescribeSecurityGroupRules)."),
    },
  },
);

export const { crdSource: securityGroupCrdSource } = schemas;

/** The read answer's member holding the group's rules (merged in by answerMore). */
const rulesMember = "SecurityGroupRules";

/** Every rule of group `id`, page by page. */
async function rulesOf(ask: Ask, id: string): Promise<Fields[]> {
  const rules: Fields[] = [];
  for await (const page of pages(ask, "DescribeSecurityGroupRules", {
    Filters: [{ Name: "group-id", Values: [id] }],
  }))
    rules.push(...((page[rulesMember] as Fields[] | undefined) ?? []).filter((r) => r["GroupId"] === id));
  return rules;
}

/** A rule of status.rules from EC2's SecurityGroupRule. */
function ruleFrom(r: Fields): Fields {
  const pick: Record<string, string> = {
    SecurityGroupRuleId: "securityGroupRuleID",
    IsEgress: "isEgress",
    IpProtocol: "ipProtocol",
    FromPort: "fromPort",
    ToPort: "toPort",
    CidrIpv4: "cidrIPv4",
    CidrIpv6: "cidrIPv6",
    PrefixListId: "prefixListID",
    Description: "description",
  };
  const out: Fields = {};
  for (const [aws, spec] of Object.entries(pick)) if (r[aws] !== undefined) out[spec] = r[aws];
  const tags = r["Tags"] as { Key?: string; Value?: string }[] | undefined;
  if (tags !== undefined && tags.length > 0) out["tags"] = tags.map((t) => ({ key: t.Key, value: t.Value }));
  return out;
}

/** The permissions in AWS's form, as the spec's rules field's codec sends them. */
const awsPermissions = (field: "ingressRules" | "egressRules", permissions: Fields[]) => {
  const [, codec] = securityGroupGenerated.codecs[field] ?? ["", {}];
  return toAws(codec, permissions);
};

/** One way's rules brought to the spec: revoked first (a changed grant is a new one), then authorized, then described. */
function writeRules(way: "Ingress" | "Egress") {
  const field = way === "Ingress" ? "ingressRules" : "egressRules";
  return async (ask: Ask, id: string, desired: Fields, observed: Fields): Promise<void> => {
    const plan = rulesPlan(desired[field], observed[field], id);
    const at = { field: `spec.${field}` };
    const send = async (call: string, permissions: Fields[]) => {
      if (permissions.length > 0)
        await ask(call, { GroupId: id, IpPermissions: awsPermissions(field, merged(permissions)) }, at);
    };
    await send(`RevokeSecurityGroup${way}`, plan.revoke);
    await send(`AuthorizeSecurityGroup${way}`, plan.authorize);
    await send(`UpdateSecurityGroupRuleDescriptions${way}`, plan.describe);
  };
}

/** Every rule of group `id` revoked, as EC2 answers them (before the group is deleted). */
async function revokeEveryRule(ask: Ask, id: string): Promise<void> {
  const answer = await ask("DescribeSecurityGroups", { GroupIds: [id] }, { unlessGone: true });
  const group = ((answer?.["SecurityGroups"] as Fields[] | undefined) ?? []).find((g) => g["GroupId"] === id);
  if (group === undefined) return;
  for (const [call, member] of [
    ["RevokeSecurityGroupIngress", "IpPermissions"],
    ["RevokeSecurityGroupEgress", "IpPermissionsEgress"],
  ] as const) {
    const rules = (group[member] as unknown[] | undefined) ?? [];
    if (rules.length > 0) await ask(call, { GroupId: id, IpPermissions: rules }, { unlessGone: true });
  }
}

/** The group's own ID on either side (its rules' pairs naming no group are it). */
const selfOf = (desired: Fields, observed: Fields) => String(observed["id"] ?? desired["id"] ?? "");

/** What the runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const securityGroupSource = {
  kind,
  declaration: securityGroupDeclaration,
  generated: securityGroupGenerated,
  schemas,
  sdk: ec2Sdk,
  clientFactory: ec2ClientFactory,
  hooks: {
    findTagged: taggedBy("DescribeSecurityGroups", "SecurityGroups", "GroupId"),
    // ACK's status.rules: one more call per read.
    answerMore: async (ask, answer) => {
      const id = answer["GroupId"];
      return typeof id === "string" ? { [rulesMember]: await rulesOf(ask, id) } : {};
    },
    statusFromAnswer: (answer): Fields => {
      const rules = answer[rulesMember] as Fields[] | undefined;
      return rules === undefined ? {} : { rules: rules.map(ruleFrom) };
    },
    equal: {
      ingressRules: (desired, observed) =>
        sameRules(desired["ingressRules"], observed["ingressRules"], selfOf(desired, observed)),
      egressRules: (desired, observed) =>
        sameRules(desired["egressRules"], observed["egressRules"], selfOf(desired, observed)),
    },
    writes: {
      AuthorizeSecurityGroupIngress: writeRules("Ingress"),
      AuthorizeSecurityGroupEgress: writeRules("Egress"),
    },
    // Its rules go first: a rule naming another group keeps that group from being deleted (two
    // groups naming each other could never go), and the rules are this group's to give up.
    beforeDelete: (ask, address) => revokeEveryRule(ask, String(address["GroupId"] ?? "")),
  },
} satisfies DeclaredKindSource<EC2Client>;

export const securityGroupService = declaredKindModule(securityGroupSource);
