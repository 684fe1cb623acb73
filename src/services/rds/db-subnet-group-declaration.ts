// The DBSubnetGroup kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateDBSubnetGroup's input with ACK's
// names, ModifyDBSubnetGroup for what can change, and ACK's status from DescribeDBSubnetGroups.
// It has no hand-written module: the generic runtime (src/services/declared-kind/) serves it from
// this declaration, the generated module and the hooks in db-subnet-group.ts.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const dbSubnetGroupDeclaration = {
  service: "rds",
  kind: "DBSubnetGroup",
  identifier: "DBSubnetGroupName",
  immutable: ["DBSubnetGroupName"],
  // ACK's terminal codes for DBSubnetGroup (its generator.yaml), and RDS's refusals of a value.
  // RDS refuses tag keys starting with rds: (its Tag shape's documentation), as it does aws:.
  reservedTagPrefixes: { "rds:": "RDS" },
  terminalCodes: [
    "DBSubnetGroupDoesNotCoverEnoughAZs",
    "InvalidSubnet",
    "InvalidParameter",
    "InvalidParameterValue",
    "InvalidParameterCombination",
    "SubnetAlreadyInUse",
  ],
  spec: [{ members: "CreateDBSubnetGroupMessage" }],
  renames: { DBSubnetGroupName: "name", DBSubnetGroupDescription: "description" },
  references: [{ field: "SubnetIds", service: "ec2", kind: "Subnet" }],
  notes: {
    DBSubnetGroupName: "Immutable: RDS cannot rename a DB subnet group. Stored in lowercase by RDS.",
    Tags: "Removed from the spec, the group's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateDBSubnetGroup",
  groups: [
    {
      set: "ModifyDBSubnetGroup",
      read: "DescribeDBSubnetGroups",
      fields: { DBSubnetGroupDescription: {}, SubnetIds: { form: "set" } },
    },
    {
      set: "AddTagsToResource",
      remove: "RemoveTagsFromResource",
      read: "ListTagsForResource",
      fields: { Tags: { form: "tags" } },
    },
  ],
  status: {
    from: "DBSubnetGroup",
    only: ["SubnetGroupStatus", "Subnets", "SupportedNetworkTypes", "VpcId"],
  },
  runtime: {
    service: "RDS",
    noun: "DB subnet group",
    identifierCase: "insensitive",
    // RDS answers the subnets as `Subnets[].SubnetIdentifier`; the spec holds their IDs.
    read: {
      call: "DescribeDBSubnetGroups",
      output: "DBSubnetGroups",
      members: { SubnetIds: "Subnets[].SubnetIdentifier" },
    },
    delete: "DeleteDBSubnetGroup",
    arn: "DBSubnetGroupArn",
    arnResource: "subgrp:",
    notFound: ["DBSubnetGroupNotFound"],
    alreadyExists: ["DBSubnetGroupAlreadyExists"],
    tags: { resource: "ResourceName", keys: "TagKeys", list: "TagList" },
    errorFields: {
      InvalidSubnet: "SubnetIds",
      // What moto answers for a subnet that does not exist (EC2's code); RDS says InvalidSubnet.
      "InvalidSubnetID.NotFound": "SubnetIds",
      DBSubnetGroupDoesNotCoverEnoughAZs: "SubnetIds",
      SubnetAlreadyInUse: "SubnetIds",
    },
  },
} as const satisfies KindDeclaration;
