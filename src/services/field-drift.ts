// What drift reports (one differing field), and the loop every service's diff.ts runs the same
// way to copy into the spec the late-initialised fields AWS decided. Which fields differ is the
// declaration's table (declared-drift.ts); which value to copy stays with each service.

/** One field of the spec that differs from what AWS has. */
export interface FieldDifferenceOf<Field extends string> {
  readonly field: Field;
  /** `spec.<field>`, for conditions, Events and logs. */
  readonly path: string;
  readonly desired: unknown;
  readonly observed: unknown;
}

/**
 * Fills the `fields` the spec leaves out with `observedValue(field)` (undefined: nothing to
 * copy). Returns the spec (a new object when something was filled) and the fields filled, so
 * the caller knows whether the resource needs a patch.
 */
export function lateInitializeFields<Spec extends object, Field extends keyof Spec & string>(
  spec: Spec,
  fields: readonly Field[],
  observedValue: (field: Field) => unknown,
): { spec: Spec; initialized: Field[] } {
  const initialized: Field[] = [];
  const filled = { ...spec } as Record<string, unknown>;
  for (const field of fields) {
    if (spec[field] !== undefined) continue;
    const value = observedValue(field);
    if (value === undefined) continue;
    filled[field] = value;
    initialized.push(field);
  }
  return { spec: initialized.length === 0 ? spec : (filled as Spec), initialized };
}
