// The `account` and `role` labels of the AWS call metrics (aws-call-observer.ts, aws-rate-limit.ts):
// which account throttles or answers AccessDenied, as whom. Their values come from decisions,
// which come from the configuration (CARM maps, identities, selectors), so they are as many as
// the accounts and roles configured; a cap keeps a runaway configuration from growing the metrics
// without bound: beyond it, values are counted as "other".

/** A call made for no resource (the controller asking STS who it is): no account of a resource. */
export const noAccount = "none";
/** The controller's own or a static identity's credentials: no role assumed. */
export const noRole = "none";
export const otherLabel = "other";

/** Values of one label, the first `max` distinct ones kept as they are, the rest "other". */
export class BoundedLabel {
  readonly #seen = new Set<string>();
  readonly #max: number;

  constructor(max = 500) {
    this.#max = max;
  }

  of(value: string): string {
    if (this.#seen.has(value)) return value;
    if (this.#seen.size >= this.#max) return otherLabel;
    this.#seen.add(value);
    return value;
  }
}

/** The role's name (with its path) from its ARN, `none` for no role: the label a person reads. */
export function roleLabel(roleARN: string | null | undefined): string {
  if (roleARN === null || roleARN === undefined) return noRole;
  const at = roleARN.indexOf(":role/");
  return at < 0 ? roleARN : roleARN.slice(at + ":role/".length);
}
