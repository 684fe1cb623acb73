// Escaping for the HTML report. Every string that comes from the report goes through here:
// names, keys, messages and `how` sentences can be written by tenants (labels, annotations,
// object names), so none of them may ever become markup. One function serves text and
// double-quoted attribute values alike (the report writes every attribute with "...").

const entities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

/**
 * Shortens `text` to at most `max` characters (code points, so no surrogate pair is split),
 * ending in "…". Applied to the raw string, before escaping, so no entity is ever cut.
 */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}
