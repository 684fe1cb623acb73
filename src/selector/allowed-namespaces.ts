// `allowedNamespaces` on cluster-scoped identities, with CAPA's semantics (cluster-api-provider-aws
// pkg/cloud/scope/session.go, isClusterPermittedToUsePrincipal, and api/v1beta2 AllowedNamespaces):
//
//   field absent / null            → no namespace
//   equal to `{}`                  → every namespace
//   otherwise                      → namespaces in `list` OR namespaces whose labels match `selector`,
//                                    where an empty list and an empty selector each add nothing.
//
// The subtle part is what "equal to {}" means. CAPA compares the decoded Go struct with
// cmp.Equal(*allowedNs, AllowedNamespaces{}), where `list` is a []string and `selector` is a
// metav1.LabelSelector *value*. cmp.Equal tells a nil slice/map from an empty one, so:
//   {list: []}                      → list is non-nil and empty   → not `{}` → admits nothing
//   {list: null}                    → list is nil                 → `{}`     → admits every namespace
//   {selector: null}                → selector is the zero value → `{}`     → admits every namespace
//   {selector: {}}                  → selector is the zero value → `{}`     → admits every namespace (!)
//   {selector: {matchLabels: {}}}   → matchLabels non-nil, empty  → not `{}` → admits nothing
//   {selector: {matchExpressions: []}} → likewise                → admits nothing
// crossrole's DESIGN (§2.5) fixes `{selector: {}}` as matching NOTHING: an explicitly written empty
// selector reads as "no namespace selected", and when in doubt an identity grant fails closed. So
// here a selector that is present but empty admits nothing, like `matchLabels: {}`; we warn,
// because a CAPA manifest with `{selector: {}}` means "every namespace" there. Further
// deliberate differences, all failing closed:
//   - an invalid selector makes the whole field invalid (CAPA still honours `list` first and only
//     errors when it reaches the selector);
//   - a namespace whose Namespace object is unknown (labels `null`) can only be admitted by `list`,
//     as in CAPA, which evaluates the selector by listing the Namespaces that exist.

import {
  type CompiledSelector,
  compileLabelSelector,
  type LabelSelector,
  type Labels,
} from "./label-selector.ts";
import { dns1123LabelErrors } from "./label-syntax.ts";

export interface AllowedNamespaces {
  readonly list?: readonly string[] | null;
  readonly selector?: LabelSelector | null;
}

/** none: admits no namespace; all: admits every namespace; some: admits those in the list or matching the selector. */
export type AllowedNamespacesKind = "none" | "all" | "some";

export interface CompiledAllowedNamespaces {
  /**
   * Whether `namespace` may use the identity. `labels` are the Namespace object's labels
   * (undefined when it has none); pass `null` when the Namespace object is not known, so only
   * `list` can admit it.
   */
  allows(namespace: string, labels: Labels | null): boolean;
  /** For traces and condition messages, e.g. "namespaces [a, b] or namespaces with labels team=a". */
  describe(): string;
  readonly kind: AllowedNamespacesKind;
  /** The `list` part, sorted and without duplicates (empty unless kind is "some"). */
  readonly namespaces: readonly string[];
  /** The `selector` part when it can admit anything (kind "some" only), else null. */
  readonly selector: CompiledSelector | null;
}

export type CompileAllowedNamespacesResult =
  | { readonly ok: true; readonly allowed: CompiledAllowedNamespaces; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[] };

class Fixed implements CompiledAllowedNamespaces {
  readonly namespaces: readonly string[] = [];
  readonly selector = null;
  readonly kind: "none" | "all";
  readonly #description: string;

  constructor(kind: "none" | "all", description: string) {
    this.kind = kind;
    this.#description = description;
  }

  allows(): boolean {
    return this.kind === "all";
  }

  describe(): string {
    return this.#description;
  }
}

class Some implements CompiledAllowedNamespaces {
  readonly kind = "some";
  readonly namespaces: readonly string[];
  readonly selector: CompiledSelector | null;
  readonly #names: ReadonlySet<string>;
  readonly #description: string;

  constructor(namespaces: readonly string[], selector: CompiledSelector | null) {
    this.namespaces = namespaces;
    this.selector = selector;
    this.#names = new Set(namespaces);
    const parts: string[] = [];
    if (namespaces.length > 0) parts.push(`namespaces [${namespaces.join(", ")}]`);
    if (selector !== null) parts.push(`namespaces with labels ${selector.toString()}`);
    this.#description = parts.join(" or ");
  }

  allows(namespace: string, labels: Labels | null): boolean {
    if (this.#names.has(namespace)) return true;
    return this.selector !== null && labels !== null && this.selector.matches(labels);
  }

  describe(): string {
    return this.#description;
  }
}

const NOT_SET = new Fixed("none", "no namespace (allowedNamespaces is not set)");
const EVERY = new Fixed("all", "every namespace (allowedNamespaces is {})");

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const isAbsent = (v: unknown): boolean => v === undefined || v === null;

/**
 * Validates and compiles an `allowedNamespaces` value. `path` prefixes every error and warning
 * (default `allowedNamespaces`; e.g. `spec.allowedNamespaces`). Never throws.
 */
export function compileAllowedNamespaces(
  a: AllowedNamespaces | null | undefined,
  path = "allowedNamespaces",
): CompileAllowedNamespacesResult {
  if (isAbsent(a)) return { ok: true, allowed: NOT_SET, warnings: [] };
  if (!isPlainObject(a))
    return { ok: false, errors: [`${path}: must be an object with list and/or selector`] };

  const errors: string[] = [];
  const warnings: string[] = [];
  const list: unknown = a.list;
  const rawSelector: unknown = a.selector;

  const names: string[] = [];
  if (!isAbsent(list)) {
    if (!Array.isArray(list)) {
      errors.push(`${path}.list: must be a list of namespace names`);
    } else {
      list.forEach((name: unknown, i) => {
        if (typeof name !== "string") {
          errors.push(`${path}.list[${i}]: must be a string`);
          return;
        }
        if (dns1123LabelErrors(name).length > 0) {
          warnings.push(
            `${path}.list[${i}]: ${JSON.stringify(name)} is not a valid namespace name, so it never matches`,
          );
        }
        names.push(name);
      });
    }
  }

  const compiled = isAbsent(rawSelector)
    ? undefined
    : compileLabelSelector(rawSelector as LabelSelector, `${path}.selector`);
  if (compiled !== undefined && !compiled.ok) errors.push(...compiled.errors);
  if (errors.length > 0) return { ok: false, errors };

  // `{}` and `{list: null, selector: null}`: every namespace (see the file comment).
  if (isAbsent(list) && isAbsent(rawSelector)) return { ok: true, allowed: EVERY, warnings };
  if (isAbsent(list) && compiled?.ok === true && compiled.selector.empty && isPlainObject(rawSelector)) {
    if (isAbsent(rawSelector.matchLabels) && isAbsent(rawSelector.matchExpressions)) {
      warnings.push(
        `${path}.selector: an empty selector {} admits NO namespace here (CAPA would read it as ` +
          `allowedNamespaces: {}); to admit every namespace write allowedNamespaces: {}; to restrict, add matchLabels`,
      );
    }
  }

  // Here the selector is valid (errors returned above); an empty one contributes nothing.
  const selector = compiled?.ok === true && !compiled.selector.empty ? compiled.selector : null;
  const namespaces = [...new Set(names)].sort();
  if (namespaces.length === 0 && selector === null) {
    const listPart = isAbsent(list) ? "no list" : "an empty list";
    const selectorPart = isAbsent(rawSelector) ? "no selector" : "an empty selector";
    return {
      ok: true,
      allowed: new Fixed(
        "none",
        `no namespace (allowedNamespaces has ${listPart} and ${selectorPart}; an empty list or selector admits nothing)`,
      ),
      warnings,
    };
  }
  return { ok: true, allowed: new Some(namespaces, selector), warnings };
}
