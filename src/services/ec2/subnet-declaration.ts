// The Subnet kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateSubnet's input
// with ACK's names, the launch settings ModifySubnetAttribute changes one per call, its route
// tables (associated by the kind), tags by the subnet's ID, and ACK's status. A subnet is named by
// the ID EC2 gives it (runtime.assigned), found by EC2's tag filter; its VPC may be named by a
// reference to a VPC resource (`vpcRef`).
import type { KindDeclaration } from "../../codegen/declaration.ts";
import { ec2Tags } from "./tags-declaration.ts";

/** The launch settings, each set by its own ModifySubnetAttribute, at its member there. */
const settings = {
  MapPublicIpOnLaunch: "MapPublicIpOnLaunch.Value",
  AssignIpv6AddressOnCreation: "AssignIpv6AddressOnCreation.Value",
  EnableDns64: "EnableDns64.Value",
  CustomerOwnedIpv4Pool: "CustomerOwnedIpv4Pool",
  HostnameType: "PrivateDnsHostnameTypeOnLaunch",
  EnableResourceNameDnsARecord: "EnableResourceNameDnsARecordOnLaunch.Value",
  EnableResourceNameDnsAAAARecord: "EnableResourceNameDnsAAAARecordOnLaunch.Value",
} as const;

export const subnetDeclaration = {
  service: "ec2",
  kind: "Subnet",
  identifier: "SubnetId",
  // EC2 fixes these at creation (ACK's controller never changes them either).
  immutable: [
    "VpcId",
    "CidrBlock",
    "Ipv6CidrBlock",
    "AvailabilityZone",
    "AvailabilityZoneId",
    "OutpostArn",
    "Ipv6Native",
  ],
  lateInitialized: [],
  terminalCodes: [
    "InvalidParameterValue",
    "InvalidParameterCombination",
    "InvalidSubnet.Range",
    "InvalidSubnet.Conflict",
    "InvalidCustomerOwnedIpv4PoolID.Malformed",
    "InvalidVpcID.NotFound",
  ],
  // ACK's CRD has none of the IPAM members (newer than its release); the launch settings are the
  // subnet's own members (ACK moves them into the spec: its generator.yaml).
  spec: [
    {
      members: "CreateSubnetRequest",
      ignore: [
        "TagSpecifications",
        "DryRun",
        "Ipv4IpamPoolId",
        "Ipv4NetmaskLength",
        "Ipv6IpamPoolId",
        "Ipv6NetmaskLength",
      ],
    },
    {
      members: "Subnet",
      only: ["MapPublicIpOnLaunch", "AssignIpv6AddressOnCreation", "EnableDns64", "CustomerOwnedIpv4Pool"],
    },
    { members: "PrivateDnsNameOptionsOnLaunch" },
    {
      field: "RouteTables",
      listOf: "String",
      doc: "The IDs of the route tables the subnet is associated with (AssociateRouteTable); removed from the list, an association is removed (DisassociateRouteTable). Left out, the subnet's associations are left as they are.",
    },
    { field: "Tags", from: "CreateTagsRequest.Tags" },
  ],
  references: [
    { field: "VpcId", service: "ec2", kind: "VPC" },
    // Not served yet: routeTableRefs is refused, naming routeTables.
    { field: "RouteTables", service: "ec2", kind: "RouteTable" },
  ],
  notes: {
    VpcId: "Immutable. Give it, or name a VPC resource by `vpcRef`.",
    Tags: "Removed from the spec, the subnet's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateSubnet",
  groups: [
    {
      set: "ModifySubnetAttribute",
      read: "DescribeSubnets",
      // One attribute per call; left out, EC2's value is kept (as ACK does).
      oneChangePerCall: true,
      setAt: settings,
      fields: {
        MapPublicIpOnLaunch: { absent: "kept" },
        AssignIpv6AddressOnCreation: { absent: "kept" },
        EnableDns64: { absent: "kept" },
        CustomerOwnedIpv4Pool: { absent: "kept" },
        HostnameType: { absent: "kept" },
        EnableResourceNameDnsARecord: { absent: "kept" },
        EnableResourceNameDnsAAAARecord: { absent: "kept" },
      },
    },
    {
      // Written by the kind (subnet.ts): an association is removed by its own ID.
      set: "AssociateRouteTable",
      remove: "DisassociateRouteTable",
      read: "DescribeSubnets",
      byHook: true,
      fields: { RouteTables: { form: "set", absent: "kept" } },
    },
    {
      set: "CreateTags",
      remove: "DeleteTags",
      read: "DescribeSubnets",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: {
    from: "Subnet",
    only: [
      "SubnetId",
      "State",
      "AvailableIpAddressCount",
      "DefaultForAz",
      "EnableLniAtDeviceIndex",
      "Ipv6CidrBlockAssociationSet",
      "MapCustomerOwnedIpOnLaunch",
      "OwnerId",
      "PrivateDnsNameOptionsOnLaunch",
    ],
  },
  runtime: {
    service: "EC2",
    noun: "subnet",
    read: {
      call: "DescribeSubnets",
      output: "Subnets",
      members: {
        HostnameType: "PrivateDnsNameOptionsOnLaunch.HostnameType",
        EnableResourceNameDnsARecord: "PrivateDnsNameOptionsOnLaunch.EnableResourceNameDnsARecord",
        EnableResourceNameDnsAAAARecord: "PrivateDnsNameOptionsOnLaunch.EnableResourceNameDnsAAAARecord",
      },
    },
    // EC2 names a subnet by the ID its create answers; status records it (ACK's subnetID), but
    // only the owner-uid tag says which subnet is this resource's.
    assigned: {
      answer: "Subnet.SubnetId",
      status: "subnetID",
      pattern: "^subnet-([0-9a-f]{8}|[0-9a-f]{17})$",
    },
    states: { member: "State", ready: ["available"] },
    delete: "DeleteSubnet",
    arn: "SubnetArn",
    arnScope: "regional",
    arnResource: "subnet/",
    notFound: ["InvalidSubnetID.NotFound"],
    alreadyExists: [],
    tags: ec2Tags("subnet"),
    errorFields: {
      "InvalidSubnet.Range": "CidrBlock",
      "InvalidSubnet.Conflict": "CidrBlock",
      "InvalidVpcID.NotFound": "VpcId",
      "InvalidRouteTableID.NotFound": "RouteTables",
    },
    hints: {
      DependencyViolation:
        " (the subnet still holds network interfaces, instances or databases: delete those first; crossrole tries again)",
      "InvalidSubnet.Range":
        " (the block must lie in the VPC's CIDR blocks, from /16 to /28; fix spec.cidrBlock)",
      "InvalidSubnet.Conflict": " (the block overlaps another subnet's in the VPC; fix spec.cidrBlock)",
      "InvalidVpcID.NotFound": " (no such VPC in this account and region; fix spec.vpcID or spec.vpcRef)",
    },
  },
} as const satisfies KindDeclaration;
