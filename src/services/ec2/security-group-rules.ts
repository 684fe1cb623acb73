// A security group's rules as EC2 keeps them, in spec form (ACK's IPPermission): EC2 merges the
// grants of one protocol and port range into one permission, answers a protocol number by its name
// (6 is tcp), a CIDR as its network (10.0.0.9/8 is 10.0.0.0/8), no ports for a protocol without
// them, and fills a group pair's account and VPC. So rules are compared grant by grant — each one
// protocol, port range and one source — and a change is planned as the grants to authorize, to
// revoke, and to describe anew (a description is no part of a grant's identity). A pair naming no
// group is the group itself, as ACK has it. Pure.

type Fields = Record<string, unknown>;

/** One grant: a protocol, a port range, one source; its key says all but the description. */
export interface Grant {
  readonly key: string;
  readonly description: string;
  /**
   * The grant as one spec-form permission (ACK's IPPermission with one source), its protocol and
   * ports as given (AWS takes "6" and "tcp" alike, as ACK sends them), an icmpv6 rule without a
   * type and code as all of them (-1: what AWS means by none), its CIDR as its network.
   */
  readonly permission: Fields;
}

const protocolNames: Readonly<Record<string, string>> = {
  "1": "icmp",
  "6": "tcp",
  "17": "udp",
  "58": "icmpv6",
};
/** Protocols whose rules have a port range (icmp's: type and code). */
const withPorts = new Set(["tcp", "udp", "icmp", "icmpv6"]);

/** A protocol as EC2 answers it: a name where it has one, "-1" for all (also "all"). */
export function canonicalProtocol(protocol: unknown): string {
  const p = String(protocol ?? "-1").toLowerCase();
  if (p === "all") return "-1";
  return protocolNames[p] ?? p;
}

/** A CIDR as EC2 stores it: its network, the host bits cleared; anything else as given. */
export function canonicalCidr(cidr: unknown): string {
  const text = String(cidr ?? "");
  const [address = "", bitsText = ""] = text.split("/");
  const bits = Number(bitsText);
  if (!/^\d+$/.test(bitsText)) return text;
  const v4 = address.split(".");
  if (v4.length === 4 && v4.every((o) => /^\d+$/.test(o) && Number(o) < 256) && bits <= 32) {
    const value = v4.reduce((n, o) => n * 256 + Number(o), 0);
    const network = bits === 0 ? 0 : Math.floor(value / 2 ** (32 - bits)) * 2 ** (32 - bits);
    return `${[24, 16, 8, 0].map((s) => Math.floor(network / 2 ** s) % 256).join(".")}/${bits}`;
  }
  const groups = expandedV6(address);
  if (groups === undefined || bits > 128) return text;
  const masked = groups.map((g, i) => {
    const keep = Math.max(0, Math.min(16, bits - i * 16));
    return keep === 16 ? g : keep === 0 ? 0 : g & (0xffff << (16 - keep)) & 0xffff;
  });
  return `${compressedV6(masked)}/${bits}`;
}

function expandedV6(address: string): number[] | undefined {
  if (!/^[0-9a-fA-F:]+$/.test(address) || !address.includes(":")) return undefined;
  const [head = "", tail, ...more] = address.split("::");
  if (more.length > 0) return undefined;
  const part = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const all = [...left, ...Array<number>(missing).fill(0), ...right];
  return all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined;
}

/** RFC 5952's text: lower case, the longest run of zero groups (two or more) as "::". */
function compressedV6(groups: number[]): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(":");
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLength))}`;
}

/** The permission's protocol and port range as EC2 keeps them. */
function rangeOf(rule: Fields): { protocol: string; from?: number; to?: number } {
  const protocol = canonicalProtocol(rule["ipProtocol"]);
  if (!withPorts.has(protocol)) return { protocol };
  const port = (v: unknown) =>
    typeof v === "number" && !(protocol === "icmpv6" && v === -1) ? v : undefined;
  const from = port(rule["fromPort"]);
  const to = port(rule["toPort"]);
  return { protocol, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Each grant of `rules` (spec form), `self` the group's own ID (a pair naming no group is it). */
export function grantsOf(rules: unknown, self: string): Grant[] {
  const grants: Grant[] = [];
  for (const rule of (rules as Fields[] | undefined) ?? []) {
    const range = rangeOf(rule);
    const head = `${range.protocol}/${range.from ?? ""}/${range.to ?? ""}`;
    const all = range.protocol === "icmpv6" ? -1 : undefined;
    const port = (v: unknown) => (typeof v === "number" ? v : all);
    const from = port(rule["fromPort"]);
    const to = port(rule["toPort"]);
    const base: Fields = {
      ipProtocol: String(rule["ipProtocol"] ?? "-1"),
      ...(from === undefined ? {} : { fromPort: from }),
      ...(to === undefined ? {} : { toPort: to }),
    };
    const add = (source: string, list: string, item: Fields) =>
      grants.push({
        key: `${head}/${source}`,
        description: String(item["description"] ?? ""),
        permission: { ...base, [list]: [item] },
      });
    for (const r of (rule["ipRanges"] as Fields[] | undefined) ?? [])
      add(`ip:${canonicalCidr(r["cidrIP"])}`, "ipRanges", { ...r, cidrIP: canonicalCidr(r["cidrIP"]) });
    for (const r of (rule["ipv6Ranges"] as Fields[] | undefined) ?? [])
      add(`ip6:${canonicalCidr(r["cidrIPv6"])}`, "ipv6Ranges", {
        ...r,
        cidrIPv6: canonicalCidr(r["cidrIPv6"]),
      });
    for (const p of (rule["prefixListIDs"] as Fields[] | undefined) ?? [])
      add(`pl:${String(p["prefixListID"])}`, "prefixListIDs", p);
    for (const pair of (rule["userIDGroupPairs"] as Fields[] | undefined) ?? []) {
      // Only the group names the grant (a group's ID is unique across accounts); EC2 fills the
      // account, VPC and peering of a pair, which the spec may leave out.
      const group =
        typeof pair["groupID"] === "string" && pair["groupID"] !== "" ? pair["groupID"] : undefined;
      const name =
        typeof pair["groupName"] === "string" && pair["groupName"] !== "" ? pair["groupName"] : undefined;
      const id = group ?? (name === undefined ? self : undefined);
      const sent: Fields = { ...(id === undefined ? { groupName: name } : { groupID: id }) };
      if (typeof pair["userID"] === "string") sent["userID"] = pair["userID"];
      if (typeof pair["description"] === "string") sent["description"] = pair["description"];
      add(id === undefined ? `name:${name}` : `sg:${id}`, "userIDGroupPairs", sent);
    }
  }
  return grants;
}

/**
 * Permissions sharing a protocol and port range as one, their sources together (as AWS keeps
 * them): one permission per range in a call (EC2 emulators refuse two of one range in one call).
 */
export function merged(permissions: readonly Fields[]): Fields[] {
  const lists = ["ipRanges", "ipv6Ranges", "prefixListIDs", "userIDGroupPairs"];
  const byRange = new Map<string, Fields>();
  for (const p of permissions) {
    const key = JSON.stringify([canonicalProtocol(p["ipProtocol"]), p["fromPort"], p["toPort"]]);
    const into = byRange.get(key);
    if (into === undefined) {
      byRange.set(key, { ...p });
      continue;
    }
    for (const list of lists) {
      const more = p[list] as unknown[] | undefined;
      if (more !== undefined) into[list] = [...((into[list] as unknown[] | undefined) ?? []), ...more];
    }
  }
  return [...byRange.values()];
}

/** Whether the spec's rules and EC2's are the same grants with the same descriptions. */
export function sameRules(desired: unknown, observed: unknown, self: string): boolean {
  const plan = rulesPlan(desired, observed, self);
  return plan.authorize.length === 0 && plan.revoke.length === 0 && plan.describe.length === 0;
}

/** What brings EC2's rules to the spec's: grants to revoke, to authorize, to describe anew. */
export function rulesPlan(desired: unknown, observed: unknown, self: string) {
  const want = new Map(grantsOf(desired, self).map((g) => [g.key, g]));
  const have = new Map(grantsOf(observed, self).map((g) => [g.key, g]));
  return {
    revoke: [...have.values()].filter((g) => !want.has(g.key)).map((g) => g.permission),
    authorize: [...want.values()].filter((g) => !have.has(g.key)).map((g) => g.permission),
    describe: [...want.values()]
      .filter((g) => have.has(g.key) && have.get(g.key)?.description !== g.description)
      .map((g) => g.permission),
  };
}
