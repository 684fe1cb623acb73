// Reading HTML as a test does, without a DOM library: attribute values and element text found
// by attribute, on the report renderHtml wrote or on the DOM chromium serialized (which quotes
// every attribute with "..." and escapes & " < > in it).

export function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&amp;/g, "&");
}

/** Every value of attribute `name` in `html`, unescaped, in document order. */
export function attributeValues(html: string, name: string): string[] {
  const re = new RegExp(`\\s${name}="([^"]*)"`, "g");
  return [...html.matchAll(re)].map((m) => unescapeHtml(m[1] ?? ""));
}

/** The text (up to the first child tag) of the first element with `name="value"`, or undefined. */
export function textOf(html: string, name: string, value: string): string | undefined {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`<[a-zA-Z]+[^>]*\\s${name}="${escaped}"[^>]*>([^<]*)<`).exec(html);
  return m?.[1] === undefined ? undefined : unescapeHtml(m[1]);
}

/** How many elements of tag `tag` the HTML has (opening tags). */
export function countTags(html: string, tag: string): number {
  return [...html.matchAll(new RegExp(`<${tag}[\\s>/]`, "gi"))].length;
}
