// The three CARM ConfigMaps (DESIGN §2.3) as typed entries.
//
// ACK reads these maps by exact key: the account map by `<accountID>` (or, with
// ServiceLevelCARM, `<service>.<accountID>` first), the team map by `<teamID>` (or
// `<service>.<teamID>`). `ack-carm-map` holds both kinds behind a prefix (`owner-account-id/`,
// `team-id/`) and lets a team entry carry more than its role (`/endpoint`, `/external-id`).
//
// Parsing never fails: every key becomes either an entry or a problem. A garbage key or an
// unknown sub-key is reported (DESIGN: "reported, never fatal"); a value that is unusable
// (empty, not a role ARN) stays an entry with `error` set, so a lookup that lands on it can
// say exactly which map and key to fix instead of pretending the key is missing.
//
// Key forms of ack-carm-map. DESIGN §2.3 writes `owner-account-id/<id>` and
// `team-id/<team>/<sub-key>`, but Kubernetes only stores ConfigMap data keys matching
// [-._a-zA-Z0-9]+, so a cluster can never hold a `/`. The same keys are therefore also accepted
// with `.` in place of each `/`: `owner-account-id.<id>`, `owner-account-id.<service>.<id>`,
// `team-id.<team>`, `team-id.<team>.role-arn|endpoint|external-id`. In the dot form a team
// key ending in a known sub-key is that sub-key (a team literally named `x.endpoint` needs the
// slash form, offline only). The slash form stays valid for manifests read offline. When both
// forms set the same entry to different values, lookups report a conflict (fail closed).

import { isAccountId, isIamRoleArn, matchesPattern } from "./validation.ts";

export const accountMapName = "ack-role-account-map";
export const teamMapName = "ack-role-team-map";
export const carmMapName = "ack-carm-map";

export type CarmMapName = typeof accountMapName | typeof teamMapName | typeof carmMapName;

export const carmMapNames: readonly CarmMapName[] = [accountMapName, teamMapName, carmMapName];

export function isCarmMapName(name: string): name is CarmMapName {
  return (carmMapNames as readonly string[]).includes(name);
}

/** Prefixes of `ack-carm-map` keys (DESIGN's slash form). */
export const accountKeyPrefix = "owner-account-id/";
export const teamKeyPrefix = "team-id/";
/** The same prefixes in the form a Kubernetes ConfigMap can store. */
export const accountKeyDotPrefix = "owner-account-id.";
export const teamKeyDotPrefix = "team-id.";

export type CarmSubject = "account" | "team";
export type CarmField = "role-arn" | "endpoint" | "external-id";

/** One usable-or-not mapping, addressed the way lookups address it. */
export interface CarmEntry {
  readonly map: CarmMapName;
  /** The ConfigMap data key exactly as written. */
  readonly key: string;
  readonly subject: CarmSubject;
  /**
   * The lookup id: `<id>` or `<service>.<id>`, exactly the string ACK composes. For accounts
   * the two forms are told apart (12 digits); for teams they cannot be (a team may contain a
   * dot), so lookups match the whole string.
   */
  readonly id: string;
  /** For account entries: the service prefix, if any. Always null for team entries. */
  readonly service: string | null;
  readonly field: CarmField;
  readonly value: string;
  /** Why the value cannot be used (empty, malformed ARN, ...), or null when it can. */
  readonly error: string | null;
}

export interface CarmProblem {
  readonly map: CarmMapName;
  readonly key: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  readonly fix: string;
}

export interface ParsedCarmMap {
  readonly map: CarmMapName;
  /** Sorted by key, so the result does not depend on the order keys were listed in. */
  readonly entries: readonly CarmEntry[];
  readonly problems: readonly CarmProblem[];
}

// `<service>.<accountID>`: ACK composes it from the controller's service alias (s3, sqs, ...).
const serviceAccountIdPattern = /^([a-z0-9][a-z0-9-]*)\.(\d{12})$/;

function roleArnError(value: string): string | null {
  if (value.trim() === "") return "the value is empty";
  if (!isIamRoleArn(value)) {
    return `"${value}" is not an IAM role ARN (arn:aws:iam::<12-digit account>:role/<name>)`;
  }
  return null;
}

function endpointError(value: string): string | null {
  if (value.trim() === "") return "the value is empty";
  if (!URL.canParse(value)) return `"${value}" is not a URL`;
  const protocol = new URL(value).protocol;
  return protocol === "https:" || protocol === "http:" ? null : `"${value}" is not an http(s) URL`;
}

function externalIdError(value: string): string | null {
  if (value.trim() === "") return "the value is empty";
  return matchesPattern("externalId", value)
    ? null
    : `"${value}" is not a valid external ID ([\\w+=,.@:/-]{2,1224})`;
}

function valueError(field: CarmField, value: string): string | null {
  switch (field) {
    case "role-arn":
      return roleArnError(value);
    case "endpoint":
      return endpointError(value);
    case "external-id":
      return externalIdError(value);
  }
}

type KeyParse =
  | { readonly ok: true; readonly subject: CarmSubject; readonly id: string; readonly field: CarmField }
  | {
      readonly ok: false;
      readonly severity: "error" | "warning";
      readonly message: string;
      readonly fix: string;
    };

// An account key whose account part is all digits, but not twelve of them: a digit dropped or
// doubled is the likely mistake, so the message counts them instead of restating the form.
const digitsAccountIdPattern = /^(?:[a-z0-9][a-z0-9-]*\.)?(\d+)$/;

function parseAccountId(id: string, key: string): KeyParse {
  if (isAccountId(id) || serviceAccountIdPattern.test(id)) {
    return { ok: true, subject: "account", id, field: "role-arn" };
  }
  const digits = digitsAccountIdPattern.exec(id)?.[1];
  const why =
    digits === undefined
      ? `"${id}" is neither a 12-digit account ID nor <service>.<account ID>`
      : `account ID "${digits}" has ${digits.length} digits; an AWS account ID has exactly 12`;
  return {
    ok: false,
    severity: "error",
    message: `key "${key}" is not an account key: ${why}`,
    fix: `rename the key to the 12-digit account ID (e.g. 111111111111 or s3.111111111111)`,
  };
}

function parseTeamId(id: string, key: string): KeyParse {
  if (matchesPattern("teamId", id)) return { ok: true, subject: "team", id, field: "role-arn" };
  return {
    ok: false,
    severity: "error",
    message: `key "${key}" is not a team key: "${id}" is not a valid team ID (letters, digits, '-', '_', '.')`,
    fix: "use the team ID exactly as the namespaces' services.k8s.aws/team-id annotation spells it",
  };
}

const teamSubKeys: Readonly<Record<string, CarmField>> = {
  "role-arn": "role-arn",
  endpoint: "endpoint",
  "external-id": "external-id",
};

/** The dot form of a team key: `<team>` or `<team>.<known sub-key>`. */
function parseTeamDotKey(rest: string, key: string): KeyParse {
  for (const [sub, field] of Object.entries(teamSubKeys)) {
    if (rest.endsWith(`.${sub}`)) {
      const parsed = parseTeamId(rest.slice(0, -(sub.length + 1)), key);
      return parsed.ok ? { ...parsed, field } : parsed;
    }
  }
  return parseTeamId(rest, key);
}

function parseCarmV2Key(key: string): KeyParse {
  if (key.startsWith(accountKeyDotPrefix)) return parseAccountId(key.slice(accountKeyDotPrefix.length), key);
  if (key.startsWith(teamKeyDotPrefix)) return parseTeamDotKey(key.slice(teamKeyDotPrefix.length), key);
  if (key.startsWith(accountKeyPrefix)) {
    const rest = key.slice(accountKeyPrefix.length);
    if (rest.includes("/")) {
      return {
        ok: false,
        severity: "warning",
        message: `key "${key}" has a sub-key, but owner-account-id entries take none`,
        fix: `use ${accountKeyPrefix}<account ID>: <role ARN>`,
      };
    }
    return parseAccountId(rest, key);
  }
  if (key.startsWith(teamKeyPrefix)) {
    const rest = key.slice(teamKeyPrefix.length);
    const slash = rest.indexOf("/");
    const team = slash < 0 ? rest : rest.slice(0, slash);
    const parsedTeam = parseTeamId(team, key);
    if (!parsedTeam.ok || slash < 0) return parsedTeam;
    const sub = rest.slice(slash + 1);
    const field = Object.hasOwn(teamSubKeys, sub) ? teamSubKeys[sub] : undefined;
    if (field === undefined) {
      return {
        ok: false,
        severity: "warning",
        message: `key "${key}" has unknown sub-key "${sub}"`,
        fix: `use one of ${teamKeyPrefix}${team}/role-arn, /endpoint, /external-id`,
      };
    }
    return { ok: true, subject: "team", id: team, field };
  }
  return {
    ok: false,
    severity: "error",
    message: `key "${key}" has no known prefix`,
    fix: `prefix the key with ${accountKeyDotPrefix} or ${teamKeyDotPrefix} (${accountKeyPrefix} or ${teamKeyPrefix} in offline manifests)`,
  };
}

function parseKey(map: CarmMapName, key: string): KeyParse {
  switch (map) {
    case accountMapName:
      return parseAccountId(key, key);
    case teamMapName:
      return parseTeamId(key, key);
    case carmMapName:
      return parseCarmV2Key(key);
  }
}

/**
 * Turns one CARM ConfigMap's `data` into entries and problems. `data` is whatever the object
 * held (it may be absent or garbage when read from a manifest); a non-object is one problem.
 */
export function parseCarmMap(map: CarmMapName, data: unknown): ParsedCarmMap {
  const entries: CarmEntry[] = [];
  const problems: CarmProblem[] = [];
  if (data === undefined || data === null) return { map, entries, problems };
  if (typeof data !== "object" || Array.isArray(data)) {
    problems.push({
      map,
      key: "",
      severity: "error",
      message: "data is not a map of strings",
      fix: "write data as key: value pairs",
    });
    return { map, entries, problems };
  }
  const record = data as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record).sort()) {
    const raw = record[key];
    const parsed = parseKey(map, key);
    if (!parsed.ok) {
      problems.push({ map, key, severity: parsed.severity, message: parsed.message, fix: parsed.fix });
      continue;
    }
    if (typeof raw !== "string") {
      problems.push({
        map,
        key,
        severity: "error",
        message: `the value of "${key}" is not a string`,
        fix: "quote the value",
      });
      continue;
    }
    const serviceMatch = parsed.subject === "account" ? serviceAccountIdPattern.exec(parsed.id) : null;
    const error = valueError(parsed.field, raw);
    const entry: CarmEntry = {
      map,
      key,
      subject: parsed.subject,
      id: parsed.id,
      service: serviceMatch ? serviceMatch[1]! : null,
      field: parsed.field,
      value: raw,
      error,
    };
    entries.push(entry);
    if (error !== null) {
      problems.push({
        map,
        key,
        severity: "error",
        message: `${key}: ${error}`,
        fix:
          parsed.field === "role-arn"
            ? "set the value to the role ARN to assume, e.g. arn:aws:iam::111111111111:role/ack"
            : parsed.field === "endpoint"
              ? "set the value to an https:// URL"
              : "set the value to the external ID the role's trust policy expects",
      });
    }
  }
  return { map, entries, problems };
}
