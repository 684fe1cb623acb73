// Short names for the report's objects, shared by the map and the tables: a person scans
// "shop-team" and "key 111111111111", and finds the full ARN or object in a tooltip or a table.
import type { ObjectRef } from "../resolver/types.ts";
import type { AuditGrant, GrantKind } from "./model.ts";

/** `Kind namespace/name`, or `Kind name` for cluster-scoped objects. */
export function objectText(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace === undefined ? "" : `${ref.namespace}/`}${ref.name}`;
}

/** The role's name without its ARN prefix and path (`arn:aws:iam::1:role/team/x` → `x`). */
export function roleName(roleARN: string | null): string {
  if (roleARN === null) return "controller's credentials";
  const resource = roleARN.split(":").slice(5).join(":");
  const name = resource.split("/").pop();
  return name === undefined || name === "" ? roleARN : name;
}

const kindText: Readonly<Record<GrantKind, string>> = {
  accountMap: "CARM account map",
  teamMap: "CARM team map",
  resourceAccount: "resource-level account",
  IAMRoleSelector: "IAMRoleSelector",
  identity: "identity",
  controller: "controller default",
};

export function grantKindText(grant: AuditGrant): string {
  return grant.kind === "identity" ? grant.object.kind : kindText[grant.kind];
}

/** What the map's grant box says: the key or object name, and what sort of grant it is. */
export function grantLabel(grant: AuditGrant): { readonly label: string; readonly sub: string } {
  switch (grant.kind) {
    case "accountMap":
    case "teamMap":
      return {
        label: `key ${grant.key ?? grant.object.name}`,
        sub: `${grant.kind === "accountMap" ? "account map" : "team map"} ${grant.object.name}`,
      };
    case "resourceAccount":
      return { label: `owner-account-id ${grant.account ?? grant.key ?? "?"}`, sub: kindText[grant.kind] };
    case "controller":
      return { label: "default rule", sub: objectText(grant.object) };
    default:
      return {
        label:
          grant.object.namespace === undefined
            ? grant.object.name
            : `${grant.object.namespace}/${grant.object.name}`,
        sub: grant.object.kind,
      };
  }
}
