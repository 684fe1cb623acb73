// ACK's per-kind reconcile flags: `--reconcile-resource-resync-seconds Bucket=600` and
// `--reconcile-resource-max-concurrent-syncs Bucket=8`, repeatable, one `Kind=n` each. The kind
// is matched case-insensitively against the kinds this controller serves; anything else is an
// error that names the flag, the argument and what would be valid.

export type PerKind = Readonly<Record<string, number>>;

/** Parses the arguments of one per-kind flag into lower-case kind → positive whole number. */
export function parsePerKind(
  flag: string,
  args: readonly string[],
  servedKinds: readonly string[],
): { readonly ok: true; readonly value: PerKind } | { readonly ok: false; readonly message: string } {
  const byLower = new Map(servedKinds.map((k) => [k.toLowerCase(), k]));
  const out: Record<string, number> = {};
  for (const arg of args) {
    const parts = arg.split("=");
    const fail = (why: string) => ({
      ok: false as const,
      message: `--${flag} ${arg}: ${why}; write Kind=number, e.g. --${flag} ${servedKinds[0] ?? "Bucket"}=600`,
    });
    if (parts.length !== 2) return fail("expected exactly one =");
    const [kind = "", text = ""] = parts;
    if (!byLower.has(kind.toLowerCase())) {
      return fail(
        `${kind === "" ? "the kind is missing" : `${kind} is not a kind this controller serves`} (served: ${servedKinds.join(", ")})`,
      );
    }
    const n = Number(text);
    if (text === "" || !Number.isInteger(n) || n <= 0)
      return fail(`${text || "(empty)"} is not a positive whole number`);
    out[kind.toLowerCase()] = n;
  }
  return { ok: true, value: out };
}
