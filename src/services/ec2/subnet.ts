// The Subnet kind: its declaration (subnet-declaration.ts) served by the generic runtime, with
// EC2's quirks as hooks: the route tables the subnet is associated with (read from the tables,
// an association removed by its own ID) and the tag filter that finds a subnet EC2 named.
import type { EC2Client } from "@aws-sdk/client-ec2";
import * as ec2Sdk from "@aws-sdk/client-ec2";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { Ask, DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { ec2ClientFactory } from "./client.ts";
import { subnetGenerated } from "./generated/subnet-fields.ts";
import { pages } from "./pages.ts";
import { subnetDeclaration } from "./subnet-declaration.ts";
import { taggedBy } from "./tagged.ts";

const kind = requireKind("ec2.services.k8s.aws/v1alpha1", "Subnet");

const schemas = declaredKindSchemas({ kind, declaration: subnetDeclaration, generated: subnetGenerated });

export const { crdSource: subnetCrdSource } = schemas;

/** The subnet's explicit route table associations (member of the answer, read when the spec asks). */
const associationsMember = "RouteTableAssociations";

interface Association {
  readonly RouteTableId: string;
  readonly AssociationId: string;
}

/** The route tables explicitly associated with subnet `id`, with each association's ID. */
async function associationsOf(ask: Ask, id: string): Promise<Association[]> {
  const found: Association[] = [];
  const filter = { Filters: [{ Name: "association.subnet-id", Values: [id] }] };
  for await (const page of pages(ask, "DescribeRouteTables", filter)) {
    for (const table of (page["RouteTables"] as Fields[] | undefined) ?? []) {
      for (const a of (table["Associations"] as Fields[] | undefined) ?? []) {
        // Only this subnet's own association (a table lists every subnet it serves).
        if (a["SubnetId"] !== id || a["Main"] === true) continue;
        const state = (a["AssociationState"] as Fields | undefined)?.["State"];
        if (state === "disassociated" || state === "disassociating") continue;
        found.push({
          RouteTableId: String(a["RouteTableId"]),
          AssociationId: String(a["RouteTableAssociationId"]),
        });
      }
    }
  }
  return found;
}

/** Each table the spec adds associated, then each association it dropped removed. */
async function writeRouteTables(ask: Ask, id: string, desired: Fields): Promise<void> {
  const want = desired["routeTables"] as string[] | undefined;
  if (want === undefined) return;
  const have = await associationsOf(ask, id);
  const field = { field: "spec.routeTables" };
  for (const table of want.filter((t) => !have.some((a) => a.RouteTableId === t)))
    await ask("AssociateRouteTable", { SubnetId: id, RouteTableId: table }, field);
  for (const a of have.filter((a) => !want.includes(a.RouteTableId)))
    await ask("DisassociateRouteTable", { AssociationId: a.AssociationId }, field);
}

/** What the runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const subnetSource = {
  kind,
  declaration: subnetDeclaration,
  generated: subnetGenerated,
  schemas,
  sdk: ec2Sdk,
  clientFactory: ec2ClientFactory,
  hooks: {
    findTagged: taggedBy("DescribeSubnets", "Subnets", "SubnetId"),
    // The route tables are read only when the spec names them (one more call).
    answerMore: async (ask, answer, spec) => {
      const id = answer["SubnetId"];
      if (spec["routeTables"] === undefined || typeof id !== "string") return {};
      return { [associationsMember]: await associationsOf(ask, id) };
    },
    fieldsFromAnswer: (answer) => {
      const associations = answer[associationsMember] as Association[] | undefined;
      return associations === undefined ? {} : { routeTables: associations.map((a) => a.RouteTableId) };
    },
    writes: { AssociateRouteTable: (ask, id, desired) => writeRouteTables(ask, id, desired) },
  },
} satisfies DeclaredKindSource<EC2Client>;

export const subnetService = declaredKindModule(subnetSource);
