// The `<kind>/<name>` argument of `explain` (kubectl's spelling; `<kind> <name>` works too).
import { lookupKind, type ResourceKind, resourceKinds } from "../api/kinds.ts";
import { didYouMean } from "./did-you-mean.ts";
import { badInput } from "./errors.ts";

export interface Target {
  readonly kind: ResourceKind;
  readonly name: string;
}

// Kubernetes object names are DNS-1123 subdomains; anything else cannot exist, so say so early.
const objectName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function knownKindsText(): string {
  return resourceKinds.map((k) => `${k.kind} (${k.plural}.${k.group})`).join(", ");
}

export function parseTarget(command: string, positionals: readonly string[]): Target {
  let kindText: string | undefined;
  let name: string | undefined;
  if (positionals.length === 1 && positionals[0]?.includes("/")) {
    const text = positionals[0];
    const slash = text.indexOf("/");
    kindText = text.slice(0, slash);
    name = text.slice(slash + 1);
  } else if (positionals.length === 2) {
    [kindText, name] = positionals;
  } else {
    throw badInput(
      `${command}: expected one resource as <kind>/<name> (e.g. bucket/shop-assets), got ${
        positionals.length === 0 ? "none" : positionals.map((p) => `"${p}"`).join(" ")
      }.`,
    );
  }
  const kind = lookupKind(kindText ?? "");
  if (kind === undefined) {
    const spellings = resourceKinds.flatMap((k) => [k.kind, k.plural, `${k.plural}.${k.group}`]);
    throw badInput(
      `${command}: unknown resource kind "${kindText}".${didYouMean(kindText ?? "", spellings)} Known kinds: ${knownKindsText()}.`,
    );
  }
  if (name === undefined || !objectName.test(name) || name.length > 253) {
    throw badInput(
      `${command}: "${name ?? ""}" is not a valid ${kind.kind} name (lowercase letters, digits, "-" and ".", at most 253 characters).`,
    );
  }
  return { kind, name };
}
