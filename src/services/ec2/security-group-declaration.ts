// The SecurityGroup kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateSecurityGroup's
// input with ACK's names, its inbound and outbound rules (compared and written by the kind, as EC2
// merges and rewrites them: security-group-rules.ts), tags by the group's ID, and ACK's status (its
// ID, its rules one by one). A security group is named by the ID EC2 gives it (runtime.assigned),
// found by EC2's tag filter; its VPC and the groups its rules name may be references.
import type { KindDeclaration } from "../../codegen/declaration.ts";
import { ec2Tags } from "./tags-declaration.ts";

const rulesDoc = (way: string) =>
  `The ${way} rules, as EC2's IpPermission: a protocol (tcp, udp, icmp, icmpv6, a number, or -1 for all), a port range where the protocol has ports, and the sources (${way === "inbound" ? "ipRanges, ipv6Ranges, prefixListIDs, userIDGroupPairs" : "their destinations in the same lists"}). A pair with no groupID (nor groupRef) is this group itself. Compared rule by rule as EC2 stores them (a protocol number is its name, a CIDR its network, rules of one protocol and port range merged): one missing is authorized, one EC2 has that the spec lacks is revoked, a description changed is updated in place.`;

export const securityGroupDeclaration = {
  service: "ec2",
  kind: "SecurityGroup",
  identifier: "GroupId",
  // EC2 cannot rename a group, change its description or move it to another VPC.
  immutable: ["GroupName", "Description", "VpcId"],
  lateInitialized: [],
  terminalCodes: [
    "InvalidParameterValue",
    "InvalidParameterCombination",
    "InvalidGroup.Duplicate",
    "InvalidVpcID.NotFound",
    "InvalidPermission.Malformed",
    "InvalidPermission.Duplicate",
    "RulesPerSecurityGroupLimitExceeded",
  ],
  spec: [
    { members: "CreateSecurityGroupRequest", ignore: ["TagSpecifications", "DryRun"] },
    { field: "IngressRules", listOf: "IpPermission", doc: rulesDoc("inbound") },
    { field: "EgressRules", listOf: "IpPermission", doc: rulesDoc("outbound") },
    { field: "Tags", from: "CreateTagsRequest.Tags" },
  ],
  renames: { GroupName: "name" },
  references: [
    { field: "VpcId", service: "ec2", kind: "VPC" },
    // The rules are written after the create: the group is made without waiting for the groups
    // they name (two groups naming each other, or one naming itself, each resolve once made).
    {
      field: "IngressRules.UserIdGroupPairs.GroupId",
      service: "ec2",
      kind: "SecurityGroup",
      afterCreate: true,
    },
    { field: "IngressRules.UserIdGroupPairs.VpcId", service: "ec2", kind: "VPC", afterCreate: true },
    {
      field: "EgressRules.UserIdGroupPairs.GroupId",
      service: "ec2",
      kind: "SecurityGroup",
      afterCreate: true,
    },
    { field: "EgressRules.UserIdGroupPairs.VpcId", service: "ec2", kind: "VPC", afterCreate: true },
  ],
  notes: {
    GroupName: "Immutable: EC2 cannot rename a security group. Unique in its VPC.",
    Description: "Immutable: EC2 cannot change a security group's description.",
    VpcId: "Immutable. Give it, or name a VPC resource by `vpcRef`.",
    EgressRules:
      "Left out (or empty), the group allows no outbound traffic: the rule EC2 gives a new group (all traffic to 0.0.0.0/0) is revoked, as ACK does.",
    IngressRules: "Left out (or empty), the group allows no inbound traffic.",
    Tags: "Removed from the spec, the group's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateSecurityGroup",
  groups: [
    {
      // Written by the kind (security-group.ts): EC2 merges and rewrites rules.
      set: "AuthorizeSecurityGroupIngress",
      remove: "RevokeSecurityGroupIngress",
      read: "DescribeSecurityGroups",
      byHook: true,
      fields: { IngressRules: { custom: "rule by rule, as EC2 stores them (security-group-rules.ts)" } },
    },
    {
      set: "AuthorizeSecurityGroupEgress",
      remove: "RevokeSecurityGroupEgress",
      read: "DescribeSecurityGroups",
      byHook: true,
      fields: { EgressRules: { custom: "rule by rule, as EC2 stores them (security-group-rules.ts)" } },
    },
    {
      set: "CreateTags",
      remove: "DeleteTags",
      read: "DescribeSecurityGroups",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: { from: "SecurityGroup", only: ["GroupId"], renames: { GroupId: "id" } },
  runtime: {
    service: "EC2",
    noun: "security group",
    read: {
      call: "DescribeSecurityGroups",
      output: "SecurityGroups",
      members: { IngressRules: "IpPermissions", EgressRules: "IpPermissionsEgress" },
    },
    // EC2 names a group by the ID its create answers; status records it (ACK's id), but only the
    // owner-uid tag says which group is this resource's.
    assigned: {
      answer: "GroupId",
      status: "id",
      pattern: "^sg-([0-9a-f]{8}|[0-9a-f]{17})$",
    },
    delete: "DeleteSecurityGroup",
    arn: "SecurityGroupArn",
    arnScope: "regional",
    arnResource: "security-group/",
    notFound: ["InvalidGroup.NotFound"],
    alreadyExists: [],
    tags: ec2Tags("security-group"),
    errorFields: {
      "InvalidGroup.Duplicate": "GroupName",
      "InvalidVpcID.NotFound": "VpcId",
    },
    hints: {
      "InvalidGroup.Duplicate":
        " (another security group of that name is in the VPC: choose another spec.name, or delete that group)",
      DependencyViolation:
        " (the group is still used by network interfaces, instances or databases, or named by another group's rules: remove those first; crossrole tries again)",
      "InvalidVpcID.NotFound": " (no such VPC in this account and region; fix spec.vpcID or spec.vpcRef)",
      RulesPerSecurityGroupLimitExceeded:
        " (EC2 allows 60 inbound and 60 outbound rules per group by default)",
    },
  },
} as const satisfies KindDeclaration;
