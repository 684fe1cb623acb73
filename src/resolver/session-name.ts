// RoleSessionName shows up in CloudTrail as the assumed-role principal's last segment, so the
// default must tell an auditor where a call came from, and it must satisfy STS's pattern
// `[\w+=,.@-]{2,64}` or AssumeRole fails.

const forbidden = /[^A-Za-z0-9_+=,.@-]/g;
const valid = /^[A-Za-z0-9_+=,.@-]{2,64}$/;
const maxLength = 64;
const minLength = 2;

/**
 * Makes any text a valid RoleSessionName: characters STS refuses become `-`, the result is cut
 * to 64 characters and padded (with `-`) to at least 2. Deterministic, so equal inputs give
 * equal session names and therefore share cached credentials.
 */
export function sanitizeSessionName(text: string): string {
  let name = text.replace(forbidden, "-").slice(0, maxLength);
  while (name.length < minLength) name += "-";
  return name;
}

/** True when STS would accept `name` as a RoleSessionName as written. */
export function isValidSessionName(name: string): boolean {
  return valid.test(name);
}

/** `crossrole-<subject>`, sanitised: the default session name of a hop. */
export function defaultSessionName(subject: string): string {
  return sanitizeSessionName(`crossrole-${subject}`);
}
