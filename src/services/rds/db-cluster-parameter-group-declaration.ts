// The DBClusterParameterGroup kind as a declaration (CONTRIBUTING.md, "How a kind is made"):
// CreateDBClusterParameterGroup's input with ACK's names, ACK's parameterOverrides (the parameters
// the group sets, by name) and its deprecated `parameters` (refused: use parameterOverrides), and
// ACK's status: those parameters as RDS describes them. Written as DBParameterGroup's are
// (parameter-groups.ts), by the cluster calls.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const dbClusterParameterGroupDeclaration = {
  service: "rds",
  kind: "DBClusterParameterGroup",
  identifier: "DBClusterParameterGroupName",
  immutable: ["DBClusterParameterGroupName", "DBParameterGroupFamily", "Description"],
  reservedTagPrefixes: { "rds:": "RDS" },
  terminalCodes: ["InvalidParameterValue", "InvalidParameterCombination", "DBParameterGroupQuotaExceeded"],
  spec: [
    { members: "CreateDBClusterParameterGroupMessage" },
    {
      field: "ParameterOverrides",
      mapOf: "String",
      doc: "The parameters the group sets, by name, each to its value (as text). Only these: the family's defaults and RDS's own are not listed. A parameter RDS applies at once (dynamic) is applied immediately, a static one at the next reboot of the cluster's instances.",
    },
    {
      field: "Parameters",
      listOf: "Parameter",
      doc: "DEPRECATED (ACK's): use parameterOverrides. A DBClusterParameterGroup that sets it is refused (ACK.Terminal) and nothing is created.",
    },
  ],
  renames: { DBClusterParameterGroupName: "name", DBParameterGroupFamily: "family" },
  notes: {
    DBClusterParameterGroupName:
      "Immutable: RDS cannot rename a parameter group. Stored in lowercase by RDS.",
    DBParameterGroupFamily: "Immutable: a group's family is fixed at its creation.",
    Description: "Immutable: RDS cannot change a parameter group's description.",
    ParameterOverrides:
      "A parameter removed from the map is reset to the family's default (ResetDBClusterParameterGroup).",
    Tags: "Removed from the spec, the group's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateDBClusterParameterGroup",
  notCompared: { Parameters: "refused by the spec check: ACK's deprecated form of parameterOverrides" },
  groups: [
    {
      set: "AddTagsToResource",
      remove: "RemoveTagsFromResource",
      read: "ListTagsForResource",
      fields: { Tags: { form: "tags" } },
    },
    {
      // Modified and reset twenty at a time, each with the apply method its type allows.
      set: "ModifyDBClusterParameterGroup",
      read: "DescribeDBClusterParameterGroups",
      byHook: true,
      fields: { ParameterOverrides: {} },
    },
  ],
  status: {
    from: "DBClusterParameterGroupDetails",
    only: ["Parameters"],
    renames: { Parameters: "parameterOverrideStatuses" },
  },
  runtime: {
    service: "RDS",
    noun: "DB cluster parameter group",
    identifierCase: "insensitive",
    read: {
      call: "DescribeDBClusterParameterGroups",
      output: "DBClusterParameterGroups",
      // Read by the kind's hook: the parameters the group sets (DescribeDBClusterParameters, source user).
      members: { ParameterOverrides: null, Parameters: null },
    },
    delete: "DeleteDBClusterParameterGroup",
    arn: "DBClusterParameterGroupArn",
    arnResource: "cluster-pg:",
    // RDS answers the instance groups' codes for cluster groups too.
    notFound: ["DBParameterGroupNotFound"],
    alreadyExists: ["DBParameterGroupAlreadyExists"],
    tags: { resource: "ResourceName", keys: "TagKeys", list: "TagList" },
    errorFields: { InvalidParameterValue: "ParameterOverrides" },
    hints: {
      InvalidDBParameterGroupState:
        " (a cluster is being modified with the group, or it is the family's default: try again later)",
      InvalidParameterValue: {
        "spec.parameterOverrides":
          " (a parameter the family does not have, one RDS does not let users set, or a value outside its allowed values: see `aws rds describe-db-cluster-parameters`)",
      },
    },
  },
} as const satisfies KindDeclaration;
