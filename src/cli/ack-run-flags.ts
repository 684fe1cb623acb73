// The ACK controller flags `crossrole run` takes with ACK's meaning and syntax, so that ACK's
// chart values carry over (helm/crossrole/README.md): --watch-selectors (a label selector on the
// managed kinds), --reconcile-resources (which kinds get a controller) and --resource-tags
// (default tags, controller/default-tags.ts). Each may be repeated; items are comma-separated.
// Pure: errors are messages naming the flag and the item.
import { type ParsedDefaultTags, parseDefaultTags } from "../controller/default-tags.ts";

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const splitItems = (args: readonly string[]) =>
  args
    .flatMap((a) => a.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "");

/** --resource-tags key=value,... (ACK's: comma-separated, repeatable). */
export function parseResourceTagsFlag(args: readonly string[]): Parsed<ParsedDefaultTags> {
  return parseDefaultTags(splitItems(args));
}

/**
 * --reconcile-resources Kind,Kind: the kinds to reconcile, matched case-insensitively against
 * the served ones (answered in their spelling); empty: all. A kind not served is an error.
 */
export function parseReconcileResources(
  args: readonly string[],
  servedKinds: readonly string[],
): Parsed<readonly string[]> {
  const byLower = new Map(servedKinds.map((k) => [k.toLowerCase(), k]));
  const out: string[] = [];
  for (const item of splitItems(args)) {
    const kind = byLower.get(item.toLowerCase());
    if (kind === undefined) {
      return {
        ok: false,
        message: `--reconcile-resources ${item}: not a kind this controller serves (served: ${servedKinds.join(", ")})`,
      };
    }
    if (!out.includes(kind)) out.push(kind);
  }
  return { ok: true, value: out };
}

// A label key (optional DNS prefix and a name) and value, as Kubernetes allows them.
const key = "(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?";
const value = "(?:[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?";
const requirement = new RegExp(
  String.raw`^(?:!?\s*${key}|${key}\s*(?:=|==|!=)\s*${value}|${key}\s+(?:in|notin)\s+\(\s*${value}(?:\s*,\s*${value})*\s*\))$`,
);

/**
 * --watch-selectors: a label selector in the apiserver's syntax (`team=a,tier!=test`,
 * `env in (dev,prod)`), checked here so that a typo stops the controller at start instead of
 * failing every list call. Answered as one selector; empty: none.
 */
export function parseWatchSelectors(args: readonly string[]): Parsed<string | undefined> {
  const items: string[] = [];
  for (const arg of args) {
    // Commas split requirements except inside a set's parentheses.
    let depth = 0;
    let start = 0;
    for (let i = 0; i <= arg.length; i++) {
      const c = arg[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if ((c === "," && depth === 0) || i === arg.length) {
        const item = arg.slice(start, i).trim();
        if (item !== "") items.push(item);
        start = i + 1;
      }
    }
  }
  for (const item of items) {
    if (!requirement.test(item)) {
      return {
        ok: false,
        message: `--watch-selectors ${JSON.stringify(item)}: not a label selector requirement (e.g. team=a, tier!=test, env in (dev,prod), !legacy)`,
      };
    }
  }
  return { ok: true, value: items.length === 0 ? undefined : items.join(",") };
}
