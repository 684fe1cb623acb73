// One colour per account, in the map, its legend and the tables, so "which account?" is
// answered by colour at a glance. Tableau 10 minus its grey (kept for "no account",
// aggregates and accounts past the palette): a colour shared by two accounts would mislead,
// so when there are more accounts than colours, the most-reached accounts get them and the
// rest are grey. Deterministic: the same report always gets the same colours.

import { compareText } from "../toolkit/compare-text.ts";

const palette = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#b07aa1",
  "#e15759",
  "#76b7b2",
  "#9c755f",
  "#edc948",
  "#ff9da7",
] as const;

/** The colour of "no single account": unknown, aggregate nodes, accounts past the palette. */
const neutralColor = "#8a94a6";

export interface AccountColors {
  (account: string | null): string;
  /** The accounts that have a colour of their own, in palette order (sorted by id). */
  readonly colored: readonly string[];
  /** Whether some accounts are grey because the palette ran out. */
  readonly overflow: boolean;
}

/** `reached`: how many namespaces reach each account, to pick who gets a colour. */
export function accountColors(reached: ReadonlyMap<string, number>): AccountColors {
  const ranked = [...reached.keys()].sort(
    (a, b) => (reached.get(b) ?? 0) - (reached.get(a) ?? 0) || compareText(a, b),
  );
  const colored = ranked.slice(0, palette.length).sort();
  const byAccount = new Map(colored.map((a, i) => [a, palette[i] ?? neutralColor]));
  const colors = (account: string | null) =>
    account === null ? neutralColor : (byAccount.get(account) ?? neutralColor);
  return Object.assign(colors, { colored, overflow: ranked.length > colored.length });
}
