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

/** Go's time.ParseDuration units, in ms (ACK's --http-client-timeout is a Go duration). */
const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * --http-client-timeout as ACK writes it (a Go duration: `60s`, `1m30s`, `500ms`), in ms.
 * ACK's `0` (no timeout) is refused: a call AWS never answers would hold its worker for ever,
 * and a create whose answer may come at any time could not be bounded by its intent window.
 */
export function parseHttpClientTimeout(text: string): Parsed<number> {
  const bad = (why: string): Parsed<number> => ({
    ok: false,
    message: `--http-client-timeout ${JSON.stringify(text)}: ${why}`,
  });
  const t = text.trim();
  if (t === "0" || /^0+(\.0+)?[a-zµ]*$/.test(t))
    return bad(
      "no timeout is refused: a call AWS never answers would hold its worker, and a create's intent window could not cover it; give a duration such as 60s",
    );
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(t))
    return bad("not a duration: write it as ACK does, e.g. 60s, 1m30s or 500ms");
  let ms = 0;
  for (const [, n, , unit] of t.matchAll(/(\d+(\.\d+)?)(ns|us|µs|ms|s|m|h)/g))
    ms += Number(n) * (durationUnits[unit ?? ""] ?? 0);
  if (ms < 1) return bad("shorter than a millisecond; give a duration such as 60s");
  return { ok: true, value: Math.round(ms) };
}

/**
 * ACK runtime flags crossrole takes but that change nothing here, with why: each one given is
 * said once in the log at start (`crossrole run --help` and docs/install.md say so too).
 */
export const ackNoOpFlags: Readonly<Record<string, string>> = {
  "enable-development-logging":
    "crossrole always logs JSON lines; set the level with --log-level (debug for what ACK's development logging adds)",
  "allow-unsafe-aws-endpoint-urls":
    "crossrole takes an http:// --aws-endpoint-url without it (local emulators) and logs the endpoint it uses",
  "aws-endpoint-use-path-style":
    "crossrole addresses S3 path-style whenever --aws-endpoint-url is set, virtual-hosted otherwise",
  "enable-webhook-server":
    "crossrole runs no webhook: its admission rules are CEL rules in its CRDs, checked by the apiserver",
  "webhook-server-addr": "crossrole runs no webhook server",
  "enable-field-export-reconciler": "crossrole does not serve ACK's FieldExport kind",
};

/**
 * ACK's --enable-cross-namespace with crossrole's --allow-cross-namespace-references: ACK's charts
 * pass `true` by default, which here is no grant (a reference crosses namespaces only with
 * crossrole's own flag: fail closed); `false` is crossrole's default, and contradicts the grant.
 */
export function crossNamespaceNote(
  enableCrossNamespace: boolean | undefined,
  allowReferences: boolean,
): Parsed<string | undefined> {
  if (enableCrossNamespace === false && allowReferences)
    return {
      ok: false,
      message:
        "--enable-cross-namespace=false contradicts --allow-cross-namespace-references: drop one of them",
    };
  if (enableCrossNamespace === true && !allowReferences)
    return {
      ok: true,
      value:
        "--enable-cross-namespace=true (ACK's default) grants nothing here: references stay in their resource's namespace unless --allow-cross-namespace-references is given",
    };
  return { ok: true, value: undefined };
}
