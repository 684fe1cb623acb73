// Where a read answer holds a spec field under another member (runtime.read.members): a dotted
// path through structures, `[0]` for a list's first item, `[]` for every item's (a list of them).
// Pure.

type Fields = Readonly<Record<string, unknown>>;

/** The value at `path` in `item` (`Endpoint.Port`, `DBParameterGroups[0].DBParameterGroupName`, `VpcSecurityGroups[].VpcSecurityGroupId`); undefined where any step has none. */
export function valueAt(item: Fields, path: string): unknown {
  const steps = path.split(".");
  const walk = (value: unknown, at: number): unknown => {
    if (at === steps.length || value === undefined || value === null) return value ?? undefined;
    const [, member = "", index] = /^([^[]+)(\[\d*\])?$/.exec(steps[at] ?? "") ?? [];
    const inner = (value as Fields)[member];
    if (index === undefined) return walk(inner, at + 1);
    if (!Array.isArray(inner)) return undefined;
    if (index === "[]") {
      const all = inner.map((v) => walk(v, at + 1)).filter((v) => v !== undefined && v !== null);
      return all;
    }
    return walk(inner[Number(index.slice(1, -1))], at + 1);
  };
  return walk(item, 0);
}
