// The VPC kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateVpc's input with
// ACK's names, its CIDR blocks as a list (the first made with the VPC, the others associated), the
// DNS and usage-metrics flags one ModifyVpcAttribute each, ACK's rule that empties the default
// security group, tags by the VPC's ID; and ACK's status from the VPC EC2 answers. A VPC is named
// by the ID EC2 gives it (runtime.assigned): status records it, but only the owner-uid tag, found
// by EC2's tag filter, says which VPC is this resource's.
import type { KindDeclaration } from "../../codegen/declaration.ts";
import { ec2Tags } from "./tags-declaration.ts";

/** The three VPC attributes, each read and set on its own (EC2's Describe/ModifyVpcAttribute). */
const flags = ["EnableDnsSupport", "EnableDnsHostnames", "EnableNetworkAddressUsageMetrics"] as const;
const byFlag = <T>(f: (flag: (typeof flags)[number]) => T) =>
  Object.fromEntries(flags.map((flag) => [flag, f(flag)])) as Record<(typeof flags)[number], T>;

export const vpcDeclaration = {
  service: "ec2",
  kind: "VPC",
  identifier: "VpcId",
  // EC2 fixes these at creation (ACK's controller never changes them either).
  immutable: [
    "AmazonProvidedIpv6CidrBlock",
    "InstanceTenancy",
    "Ipv4IpamPoolId",
    "Ipv4NetmaskLength",
    "Ipv6CidrBlock",
    "Ipv6CidrBlockNetworkBorderGroup",
    "Ipv6IpamPoolId",
    "Ipv6NetmaskLength",
    "Ipv6Pool",
  ],
  lateInitialized: [],
  terminalCodes: ["InvalidParameterValue", "InvalidParameterCombination", "InvalidVpc.Range"],
  // ACK's CRD has neither the encryption control (newer than its release) nor the single CIDR
  // block, which its list of them stands for.
  spec: [
    {
      members: "CreateVpcRequest",
      ignore: ["CidrBlock", "VpcEncryptionControl", "TagSpecifications", "DryRun"],
    },
    {
      field: "CidrBlocks",
      listOf: "String",
      doc: "The IPv4 CIDR blocks of the VPC, in CIDR notation (10.0.0.0/16): the first is its primary block, given when the VPC is made; each other one is associated with it (AssociateVpcCidrBlock) and, removed from the list, disassociated.",
    },
    {
      field: "EnableDnsSupport",
      custom: "boolean",
      doc: "Whether the VPC resolves DNS through the Amazon provided DNS server (on for a new VPC). Left out, EC2's value is kept.",
    },
    {
      field: "EnableDnsHostnames",
      custom: "boolean",
      doc: "Whether instances launched in the VPC get public DNS hostnames, which needs DNS support on (off for a new VPC). Left out, EC2's value is kept.",
    },
    {
      field: "EnableNetworkAddressUsageMetrics",
      custom: "boolean",
      doc: "Whether Network Address Usage metrics are on for the VPC (off for a new VPC). Left out, EC2's value is kept.",
    },
    {
      field: "DisallowSecurityGroupDefaultRules",
      custom: "boolean",
      doc: "True: every inbound and outbound rule of the VPC's default security group is removed, and removed again if one comes back. False or left out: the default group's rules are left as they are.",
    },
    { field: "Tags", from: "CreateTagsRequest.Tags" },
  ],
  notes: {
    Tags: "Removed from the spec, the VPC's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateVpc",
  groups: [
    {
      // Written by the kind (vpc.ts): a block is disassociated by its association's ID.
      set: "AssociateVpcCidrBlock",
      remove: "DisassociateVpcCidrBlock",
      read: "DescribeVpcs",
      byHook: true,
      fields: { CidrBlocks: { form: "set" } },
    },
    {
      set: "ModifyVpcAttribute",
      read: "DescribeVpcAttribute",
      // One attribute per call, each way.
      oneChangePerCall: true,
      readEach: byFlag((flag) => ({ Attribute: flag[0]?.toLowerCase() + flag.slice(1) })),
      readAt: byFlag((flag) => `${flag}.Value`),
      setAt: byFlag((flag) => `${flag}.Value`),
      // Left out, EC2's value is kept (as ACK does): nothing is read or set for it.
      fields: {
        EnableDnsSupport: { absent: "kept", default: true },
        EnableDnsHostnames: { absent: "kept", default: false },
        EnableNetworkAddressUsageMetrics: { absent: "kept", default: false },
      },
    },
    {
      // Written by the kind (vpc.ts): the rules are the default security group's, not the VPC's.
      set: "RevokeSecurityGroupIngress",
      remove: "RevokeSecurityGroupEgress",
      read: "DescribeVpcs",
      byHook: true,
      fields: {
        DisallowSecurityGroupDefaultRules: {
          custom: "only true asks for something: the default security group without rules",
        },
      },
    },
    {
      set: "CreateTags",
      remove: "DeleteTags",
      read: "DescribeVpcs",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: {
    from: "Vpc",
    only: [
      "VpcId",
      "State",
      "CidrBlockAssociationSet",
      "DhcpOptionsId",
      "Ipv6CidrBlockAssociationSet",
      "IsDefault",
      "OwnerId",
    ],
  },
  runtime: {
    service: "EC2",
    noun: "VPC",
    read: { call: "DescribeVpcs", output: "Vpcs" },
    // EC2 names a VPC by the ID its create answers; status records it (ACK's vpcID), but status is
    // the tenant's to write: a VPC is this resource's only when its tags say so.
    assigned: {
      answer: "Vpc.VpcId",
      status: "vpcID",
      pattern: "^vpc-([0-9a-f]{8}|[0-9a-f]{17})$",
    },
    states: { member: "State", ready: ["available"] },
    delete: "DeleteVpc",
    arnScope: "regional",
    arnResource: "vpc/",
    notFound: ["InvalidVpcID.NotFound"],
    alreadyExists: [],
    tags: ec2Tags("vpc"),
    errorFields: {
      "InvalidVpc.Range": "CidrBlocks",
      "InvalidCidrBlock.Malformed": "CidrBlocks",
      CidrConflict: "CidrBlocks",
    },
    hints: {
      DependencyViolation:
        " (the VPC still holds subnets, security groups, gateways or network interfaces: delete those first; crossrole tries again)",
      "InvalidVpc.Range": " (a VPC's IPv4 CIDR block is from /16 to /28; fix spec.cidrBlocks)",
      CidrConflict: " (the block overlaps one the VPC has or a route of it; fix spec.cidrBlocks)",
    },
  },
} as const satisfies KindDeclaration;
