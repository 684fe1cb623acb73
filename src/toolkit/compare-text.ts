// The one text order of sorted output (snapshot problems, audit reports, migrate selectors,
// services' canonical forms): by UTF-16 code unit, as Array.prototype.sort does by default.
// Unlike localeCompare it is the same on every machine and locale, so a report never reorders
// with where it was made. Import-free, so the pure resolver may use it.

/** -1, 0 or 1 as `a` sorts before, with or after `b`. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
