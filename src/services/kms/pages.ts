// The pages of a KMS list call (`Marker` in, `NextMarker` out while `Truncated`), one by one: the
// Key's search by tag (ListKeys) and the Alias's creation time (ListAliases).
import type { Ask, Fields } from "../declared-kind/source.ts";

export async function* kmsPages(ask: Ask, call: string, input: Fields, o?: { readonly unlessGone: true }) {
  let marker: unknown;
  do {
    const page = await ask(call, marker === undefined ? input : { ...input, Marker: marker }, o);
    if (page !== undefined) yield page;
    marker = page?.["Truncated"] === true ? page["NextMarker"] : undefined;
  } while (marker !== undefined);
}
