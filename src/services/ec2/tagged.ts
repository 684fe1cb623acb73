// EC2's objects carrying a tag, by its tag filter (`tag:<key>` = value) on a Describe call, page
// by page: how the runtime finds a VPC (subnet, security group) whose ID status does not (or
// falsely) record (runtime.assigned, search "filter"), in the client's account and region. What
// is found is read again and held to the owner-uid tag (reconcile/locate.ts).
import type { Ask } from "../declared-kind/source.ts";
import { pages } from "./pages.ts";

/** The `findTagged` hook of an EC2 kind read by `call`, listing `list` with each one's `idMember`. */
export function taggedBy(call: string, list: string, idMember: string) {
  return async (ask: Ask, key: string, value: string): Promise<readonly string[]> => {
    const found: string[] = [];
    for await (const page of pages(ask, call, { Filters: [{ Name: `tag:${key}`, Values: [value] }] })) {
      for (const item of (page[list] as Record<string, unknown>[] | undefined) ?? []) {
        const id = item[idMember];
        if (typeof id === "string" && id !== "" && !found.includes(id)) found.push(id);
      }
    }
    return found;
  };
}
