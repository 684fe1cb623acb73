// The tag keys no spec may hold, whatever its kind, and the one rule every tag-key field uses to
// refuse them (DESIGN §3.5: "reserved prefixes are refused in spec.tags"). A user tag under ACK's
// system prefix or crossrole's would look like the controller's own to a later takeover or to
// crossrole itself; AWS refuses `aws:` keys. The rule is stated once, in both halves
// (rules.ts): the CEL rule the apiserver runs at admission and the zod check the controller runs
// on every spec it reads, so an object stored before the rule existed is refused by the
// reconcile (Terminal, InvalidSpec) instead of its tag being dropped on the way to AWS.
//
// How a key is compared: surrounding whitespace trimmed, then ASCII letters lowered, then
// "starts with" each reserved prefix. Trimmed, because `"services.k8s.aws/namespace "` reaches
// AWS as written and reads as ACK's tag to a person and to tools that trim; in any case, because
// AWS reserves `aws:` in any case and a key differing from a reserved one only in case reads as
// the same key. The two halves agree exactly: CEL's `trim()` is Go's strings.TrimSpace (Unicode
// White_Space, the set `\p{White_Space}` matches), `lowerAscii()` lowers A-Z only (not the
// Kelvin sign JavaScript's toLowerCase folds to "k"), and `strings.quote` is celQuote below.
import type { z } from "zod";
import { type Rule, withRules } from "./rules.ts";

/** A prefix (lower case) no tag key may start with, and why, as the message says it. */
export interface ReservedTagPrefix {
  readonly prefix: string;
  /** Completes "keys starting with <prefix> are …". */
  readonly why: string;
}

/** The prefixes reserved in every kind's tags. */
export const reservedTagPrefixes: readonly ReservedTagPrefix[] = [
  {
    prefix: "services.k8s.aws/",
    why: "ACK's system tags, which crossrole sets itself (services.k8s.aws/namespace, services.k8s.aws/controller-version)",
  },
  { prefix: "crossrole.dev/", why: "crossrole's ownership tags, which it sets itself" },
  { prefix: "aws:", why: "reserved by AWS" },
];

/** A service's own reserved prefixes (RDS's `rds:`), from its declaration's `{ prefix: service }`. */
export function serviceTagPrefixes(byPrefix: Readonly<Record<string, string>> = {}): ReservedTagPrefix[] {
  return Object.entries(byPrefix).map(([prefix, service]) => {
    if (prefix !== prefix.toLowerCase() || prefix.trim() !== prefix || prefix === "")
      throw new Error(`reserved tag prefix ${JSON.stringify(prefix)} must be lower case, without spaces`);
    return { prefix, why: `reserved by ${service}` };
  });
}

const edgeWhitespace = /^\p{White_Space}+|\p{White_Space}+$/gu;

/** A key as the rule compares it: CEL's `key.trim().lowerAscii()`. */
export function comparedTagKey(key: string): string {
  return key.replace(edgeWhitespace, "").replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The reserved prefix `key` starts with (as compared), if any. */
export function reservedPrefixOf(
  key: string,
  extra: readonly ReservedTagPrefix[] = [],
): ReservedTagPrefix | undefined {
  const compared = comparedTagKey(key);
  return [...reservedTagPrefixes, ...extra].find((p) => compared.startsWith(p.prefix));
}

/**
 * Whether a tag key is one no spec may hold. Also what the user's tags are, among those AWS
 * reports: the ownership tags, ACK's and any AWS put there are not the user's, never compared
 * as drift, removed or copied into a spec (a spec could not hold them).
 */
export function isReservedTagKey(key: string): boolean {
  return reservedPrefixOf(key) !== undefined;
}

/** The user's tags among what AWS reports: reserved keys removed. */
export function withoutReservedTags(tags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).filter(([k]) => !isReservedTagKey(k)));
}

/** CEL's `strings.quote` (cel-go ext/strings.go quote): the message names the key on one line. */
export function celQuote(s: string): string {
  const escapes: Readonly<Record<string, string>> = {
    "\u0007": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
  };
  // A lone surrogate is no valid rune: Go's JSON decoding makes it U+FFFD before CEL sees it.
  const runes = Array.from(s, (c) => (/^\p{Surrogate}$/u.test(c) ? "\uFFFD" : (escapes[c] ?? c)));
  return `"${runes.join("")}"`;
}

/** A CEL string literal, single-quoted (what reads best in the CRD's YAML). */
const celString = (s: string): string => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function message(field: string, key: string, p: ReservedTagPrefix): string {
  return `${field} ${celQuote(key)} is reserved: keys starting with ${p.prefix} (compared after trimming spaces, in any case) are ${p.why}; rename the tag`;
}

/** CEL: whether the string `k` starts with one of `prefixes`, as compared. */
function celReserved(k: string, prefixes: readonly ReservedTagPrefix[]): string {
  return `[${prefixes.map((p) => celString(p.prefix)).join(", ")}].exists(p, ${k}.trim().lowerAscii().startsWith(p))`;
}

/** CEL: message() for the key `k` (known to be reserved). */
function celMessage(field: string, k: string, prefixes: readonly ReservedTagPrefix[]): string {
  const list = `[${prefixes.map((p) => celString(p.prefix)).join(", ")}]`;
  const prefix = `${list}.filter(p, ${k}.trim().lowerAscii().startsWith(p))[0]`;
  const why = `{${prefixes.map((p) => `${celString(p.prefix)}: ${celString(p.why)}`).join(", ")}}`;
  return `${celString(`${field} `)} + strings.quote(${k}) + " is reserved: keys starting with " + ${prefix} + " (compared after trimming spaces, in any case) are " + ${why}[${prefix}] + "; rename the tag"`;
}

/** The fallback message, naming every prefix (the apiserver's, if its message expression fails). */
function staticMessage(field: string, prefixes: readonly ReservedTagPrefix[]): string {
  return `${field} must not start with ${prefixes.map((p) => p.prefix).join(", ")} (compared after trimming spaces, in any case): crossrole and ACK set those tags themselves and AWS reserves the rest; rename the tag`;
}

/**
 * The rule on one tag key (a list's `key`): `field` names it in the message (`tags[].key`),
 * `extra` are the service's own prefixes (serviceTagPrefixes).
 */
export function reservedTagKeyRule(field: string, extra: readonly ReservedTagPrefix[] = []): Rule<string> {
  const prefixes = [...reservedTagPrefixes, ...extra];
  return {
    cel: `!${celReserved("self", prefixes)}`,
    message: staticMessage(field, prefixes),
    messageOf: {
      cel: celMessage(field, "self", prefixes),
      zod: (key) => {
        const p = reservedPrefixOf(key, extra);
        return p === undefined ? staticMessage(field, prefixes) : message(field, key, p);
      },
    },
    check: (key) => reservedPrefixOf(key, extra) === undefined,
  };
}

/**
 * The rule on a tag map's keys (SQS's `tags`). The message names the first reserved key: with
 * several, the apiserver may name another (its map order is not the object's).
 */
export function reservedTagMapKeysRule(
  field: string,
  extra: readonly ReservedTagPrefix[] = [],
): Rule<Readonly<Record<string, string>>> {
  const prefixes = [...reservedTagPrefixes, ...extra];
  const firstReserved = `self.filter(k, ${celReserved("k", prefixes)})[0]`;
  const firstOf = (tags: Readonly<Record<string, string>>) =>
    Object.keys(tags).find((k) => reservedPrefixOf(k, extra) !== undefined);
  return {
    cel: `self.all(k, !${celReserved("k", prefixes)})`,
    message: staticMessage(`${field} keys`, prefixes),
    messageOf: {
      cel: celMessage(`${field} key`, firstReserved, prefixes),
      zod: (tags) => {
        const key = firstOf(tags);
        const p = key === undefined ? undefined : reservedPrefixOf(key, extra);
        return key === undefined || p === undefined
          ? staticMessage(`${field} keys`, prefixes)
          : message(`${field} key`, key, p);
      },
    },
    check: (tags) => firstOf(tags) === undefined,
  };
}

/** Adds the rule to a tag-key field. */
export function userTagKey<S extends z.ZodType<string>>(
  schema: S,
  field: string,
  extra: readonly ReservedTagPrefix[] = [],
): S {
  return withRules(schema, reservedTagKeyRule(field, extra) as Rule<z.output<S>>);
}

/** Adds the rule to a tag map's keys. */
export function userTagMap<S extends z.ZodType<Readonly<Record<string, string>>>>(
  schema: S,
  field: string,
  extra: readonly ReservedTagPrefix[] = [],
): S {
  return withRules(schema, reservedTagMapKeysRule(field, extra) as Rule<z.output<S>>);
}
