// AWS's API documentation (HTML in the models) as the plain text of a CRD description:
// the first paragraph only, as `kubectl explain` shows it, with markup removed and entities
// decoded. Pure.

const entities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** HTML → text: tags dropped, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return (
    html
      // Inline markup joins its text to the words around it ("alias/<i>MyAlias</i>"); block
      // markup separates.
      .replace(/<\/?(?:code|i|b|a|em|strong|span|fullname|sup|sub)\b[^>]*>/gi, "")
      .replace(/<[^>]*>/g, " ")
      .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
        if (name.startsWith("#x") || name.startsWith("#X"))
          return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
        if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
        return entities[name.toLowerCase()] ?? whole;
      })
      .replace(/\s+/g, " ")
      .replace(/\s+([.,;:)])(?=\s|$)/g, "$1")
      .replace(/\(\s+/g, "(")
      .trim()
  );
}

/**
 * The first paragraph of an AWS documentation string, as text ("" when there is none). A first
 * paragraph that introduces a list ("The following limits apply to this name:") keeps the list.
 */
export function firstParagraph(html: string | undefined): string {
  if (html === undefined) return "";
  const p = /<p>([\s\S]*?)<\/p>/i.exec(html);
  const text = plainText(p?.[1] ?? html.split(/<(?:ul|ol|note|important)\b/i)[0] ?? "");
  if (text.length === 0) return plainText(html);
  if (p !== undefined && p !== null && text.endsWith(":")) {
    const joined = introducedList(html.slice(p.index + p[0].length));
    if (joined.length > 0) return `${text} ${joined}`;
  }
  return text;
}

/**
 * The entries of an HTML list that documents named values, such as SQS's and SNS's attribute
 * maps (`<li><p><code>DelaySeconds</code> – The length of time…</p></li>`): name → the
 * entry's first paragraph, without the name and dash, and, when that paragraph introduces a
 * list ("The parameters are as follows:"), the list's entries. The first entry of a name wins
 * (the same attribute may be listed again under another heading).
 */
export function namedListEntries(html: string | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (html === undefined) return out;
  for (const m of html.matchAll(/<li>\s*(?:<p>)?\s*<code>([A-Za-z0-9]+)<\/code>\s*(?:–|-|&#x2013;|:)\s*/g)) {
    const name = m[1];
    if (name === undefined || out.has(name)) continue;
    const body = itemBody(html, m.index + m[0].length);
    const [first = body, ...rest] = body.split(/<\/p>/i);
    const text = plainText(first);
    if (text.length === 0) continue;
    const list = text.endsWith(":") ? introducedList(rest.join("</p>")) : "";
    out.set(name, list.length > 0 ? `${text} ${list}` : text);
  }
  return out;
}

/**
 * The list `html` starts with (what a paragraph ending in ":" introduces), as sentences: each
 * top-level entry's text, nested lists within it included; "" when `html` starts with none.
 */
function introducedList(html: string): string {
  const start = /^\s*<ul>/i.exec(html);
  if (start === null) return "";
  // The list's own end: lists nest, and others may follow it.
  let depth = 1;
  let end = html.length;
  const tag = /<(\/?)ul>/gi;
  tag.lastIndex = start[0].length;
  for (let t = tag.exec(html); t !== null; t = tag.exec(html)) {
    depth += t[1] === "/" ? -1 : 1;
    if (depth === 0) {
      end = t.index;
      break;
    }
  }
  return topLevelItems(html.slice(start[0].length, end))
    .map(plainText)
    .map((i) => (/[.!?]$/.test(i) ? i : `${i}.`))
    .join(" ");
}

/** The rest of the `<li>` whose content starts at `from`, up to its own `</li>` (lists nest). */
function itemBody(html: string, from: number): string {
  let depth = 1;
  const tag = /<(\/?)li>/gi;
  tag.lastIndex = from;
  for (let t = tag.exec(html); t !== null; t = tag.exec(html)) {
    depth += t[1] === "/" ? -1 : 1;
    if (depth === 0) return html.slice(from, t.index);
  }
  return html.slice(from);
}

/** The contents of the top-level `<li>` items of a list's inside. */
function topLevelItems(inside: string): string[] {
  const items: string[] = [];
  const tag = /<(\/?)li>/gi;
  let depth = 0;
  let start = 0;
  for (let t = tag.exec(inside); t !== null; t = tag.exec(inside)) {
    if (t[1] === "/") {
      depth -= 1;
      if (depth === 0) items.push(inside.slice(start, t.index));
    } else {
      if (depth === 0) start = t.index + t[0].length;
      depth += 1;
    }
  }
  return items;
}
