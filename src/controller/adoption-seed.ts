// ACK's adoption without a spec: a resource with `services.k8s.aws/adoption-policy` and
// `services.k8s.aws/adoption-fields` (`{"name": "my-bucket"}`) but no spec names the AWS object
// to adopt by those fields. The spec it converges with is a seed holding only what names the
// object; the adoption then writes AWS's configuration as the spec (always a strict adoption:
// there is no spec to bring AWS to). Pure.
import { resourceAnnotations } from "../api/annotations.ts";
import type { ParseResult, ServiceModule } from "../services/service-module.ts";

type SeedModule = Pick<
  ServiceModule<object, unknown, unknown>,
  "kind" | "identifierField" | "parseSpec" | "adoptionSeed" | "assigned"
>;

/** The fields the annotation must give by default: the identifier field itself. */
function identifierSeed(
  identifierField: string,
  fields: Readonly<Record<string, string>>,
): ParseResult<Record<string, unknown>> {
  const name = fields[identifierField];
  if (name === undefined) {
    return {
      ok: false,
      message: `${resourceAnnotations.adoptionFields} names no ${identifierField} (it has ${Object.keys(fields).join(", ")}): write {"${identifierField}": "<the AWS name>"}`,
    };
  }
  return { ok: true, value: { [identifierField]: name } };
}

/**
 * The seed spec for a resource with no spec, or why there is none: no adoption asked for, no
 * fields, fields that do not name an object of this kind, or a name the kind's schema refuses.
 */
export function adoptionSeed(
  module: SeedModule,
  policies: {
    readonly adoptionPolicy: string | null;
    readonly adoptionFields: Readonly<Record<string, string>> | null;
  },
  at: { readonly region: string; readonly account: string | null },
): ParseResult<Record<string, unknown>> {
  const kind = module.kind.kind;
  const identifierField = module.identifierField.replace(/^spec\./, "");
  if (module.assigned !== undefined && policies.adoptionFields !== null) {
    // Named by an ID AWS assigned (a KMS key), an object is this resource's by its tags alone.
    return {
      ok: false,
      message: `a ${kind} is named by the ID AWS assigns it, and crossrole manages only the one it made for this resource: adopting one by ${resourceAnnotations.adoptionFields} is not supported yet; remove the annotation (a new ${kind} is then made)`,
    };
  }
  if (policies.adoptionPolicy === null || policies.adoptionFields === null) {
    return {
      ok: false,
      message: `this ${kind} has no spec: give it one, or adopt an existing AWS object with the annotations ${resourceAnnotations.adoptionPolicy}: adopt and ${resourceAnnotations.adoptionFields}: {"${identifierField}": "<the AWS name>"}`,
    };
  }
  const seed = module.adoptionSeed
    ? module.adoptionSeed(policies.adoptionFields, at)
    : identifierSeed(identifierField, policies.adoptionFields);
  if (!seed.ok) return { ok: false, message: `${resourceAnnotations.adoptionFields}: ${seed.message}` };
  // The seed names the object only; the rest of the spec comes from AWS. Only problems with what
  // it does hold count: the name must be one the kind's schema accepts.
  const parsed = module.parseSpec(seed.value);
  if (!parsed.ok) {
    const held = new Set(Object.keys(seed.value));
    const problems = (parsed.issues ?? []).filter((_, i) => held.has(String(parsed.paths?.[i]?.[0])));
    if (problems.length > 0) {
      return {
        ok: false,
        message: `${resourceAnnotations.adoptionFields} names an object this ${kind} cannot hold: ${problems.join("; ")}`,
      };
    }
  }
  return seed;
}

/**
 * A resource with a spec and adoption fields: the spec names the object crossrole adopts or
 * creates, so fields naming another one would be silently ignored (ACK would take the fields'
 * object). Why they disagree, naming both and the fix; undefined when they name the same object,
 * or when no adoption with fields is asked for.
 */
export function adoptionFieldsConflict(
  module: SeedModule & Pick<ServiceModule<object, unknown, unknown>, "identifier">,
  policies: {
    readonly adoptionPolicy: string | null;
    readonly adoptionFields: Readonly<Record<string, string>> | null;
  },
  spec: object,
  at: { readonly region: string; readonly account: string | null },
): string | undefined {
  if (policies.adoptionPolicy === null || policies.adoptionFields === null) return undefined;
  const seed = adoptionSeed(module, policies, at);
  if (!seed.ok) return seed.message;
  const named = module.identifier(seed.value);
  const own = module.identifier(spec);
  if (named === own) return undefined;
  return `${resourceAnnotations.adoptionFields} names ${module.kind.kind} "${named}", but ${module.identifierField} is "${own}": with a spec, crossrole adopts (or creates) the object the spec names. Set ${module.identifierField} to "${named}" to adopt it, or remove the annotation (or the spec, to adopt "${named}" as it is)`;
}
