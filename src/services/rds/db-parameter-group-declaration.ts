// The DBParameterGroup kind as a declaration (CONTRIBUTING.md, "How a kind is made"):
// CreateDBParameterGroup's input with ACK's names, ACK's parameterOverrides (the parameters the
// group sets, by name), and ACK's status: those parameters as RDS describes them. RDS changes a
// group's parameters twenty at a time and takes none back but by ResetDBParameterGroup, so the
// overrides are written by the kind (db-parameter-group.ts).
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const dbParameterGroupDeclaration = {
  service: "rds",
  kind: "DBParameterGroup",
  identifier: "DBParameterGroupName",
  // RDS cannot rename a group, move it to another family or change its description.
  immutable: ["DBParameterGroupName", "DBParameterGroupFamily", "Description"],
  reservedTagPrefixes: { "rds:": "RDS" },
  terminalCodes: ["InvalidParameterValue", "InvalidParameterCombination", "DBParameterGroupQuotaExceeded"],
  spec: [
    { members: "CreateDBParameterGroupMessage" },
    {
      field: "ParameterOverrides",
      mapOf: "String",
      doc: "The parameters the group sets, by name, each to its value (as text). Only these: the family's defaults and RDS's own are not listed. A parameter RDS applies at once (dynamic) is applied immediately, a static one at the next reboot of each instance using the group.",
    },
  ],
  renames: { DBParameterGroupName: "name", DBParameterGroupFamily: "family" },
  notes: {
    DBParameterGroupName: "Immutable: RDS cannot rename a parameter group. Stored in lowercase by RDS.",
    DBParameterGroupFamily: "Immutable: a group's family is fixed at its creation.",
    Description: "Immutable: RDS cannot change a parameter group's description.",
    ParameterOverrides:
      "A parameter removed from the map is reset to the family's default (ResetDBParameterGroup).",
    Tags: "Removed from the spec, the group's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateDBParameterGroup",
  groups: [
    {
      set: "AddTagsToResource",
      remove: "RemoveTagsFromResource",
      read: "ListTagsForResource",
      fields: { Tags: { form: "tags" } },
    },
    {
      // Modified and reset twenty at a time, each with the apply method its type allows.
      set: "ModifyDBParameterGroup",
      read: "DescribeDBParameterGroups",
      byHook: true,
      fields: { ParameterOverrides: {} },
    },
  ],
  status: {
    from: "DBParameterGroupDetails",
    only: ["Parameters"],
    renames: { Parameters: "parameterOverrideStatuses" },
  },
  runtime: {
    service: "RDS",
    noun: "DB parameter group",
    identifierCase: "insensitive",
    read: {
      call: "DescribeDBParameterGroups",
      output: "DBParameterGroups",
      // Read by the kind's hook: the parameters the group sets (DescribeDBParameters, source user).
      members: { ParameterOverrides: null },
    },
    delete: "DeleteDBParameterGroup",
    arn: "DBParameterGroupArn",
    arnResource: "pg:",
    notFound: ["DBParameterGroupNotFound"],
    alreadyExists: ["DBParameterGroupAlreadyExists"],
    tags: { resource: "ResourceName", keys: "TagKeys", list: "TagList" },
    errorFields: { InvalidParameterValue: "ParameterOverrides" },
    hints: {
      InvalidDBParameterGroupState:
        " (an instance is being modified with the group, or it is the family's default: try again later)",
      InvalidParameterValue: {
        "spec.parameterOverrides":
          " (a parameter the family does not have, one RDS does not let users set, or a value outside its allowed values: see `aws rds describe-db-parameters`)",
      },
    },
  },
} as const satisfies KindDeclaration;
