// A served kind's secrets (runtime.secrets): spec fields whose value is a Secret key, never
// inline. The reconciler reads each from the resource's own namespace (`secretFields`) and hands
// the values over; the create carries each, and a group's set call carries one again when its
// Secret changed or when the declared change needs it (`alsoWhen`). A call that needs a value it
// was not handed is never sent: the resource waits (SecretUnavailable, retried). Pure.
import type { SecretField, SecretValues } from "../service-module.ts";
import { specFieldOf } from "./answer-fields.ts";
import type { DeclaredKindSource, Fields, SdkClient } from "./source.ts";

/** The kind's error for a failure crossrole finds itself: the fields of a ServiceError, and the object. */
type Refusal = (init: {
  readonly disposition: "retryable";
  readonly code: string;
  readonly operation: string;
  readonly object: string;
  readonly field: string;
  readonly message: string;
}) => Error;

export function declaredSecrets(
  source: Pick<DeclaredKindSource<SdkClient>, "declaration" | "generated">,
  refusal: Refusal,
) {
  const { generated } = source;
  const runtime = source.declaration.runtime;
  const fieldOf = (aws: string) => specFieldOf(generated.codecs, aws, generated.awsNames);
  const inputs = Object.entries(runtime.secrets ?? {}).map(([aws, s]) => ({
    ...s,
    aws,
    field: fieldOf(aws),
  }));
  type Secret = (typeof inputs)[number];
  /** A secret's value; a call needing one it was not handed waits for it. */
  const secretValue = (secret: Secret, values: SecretValues, operation: string, name: string): string => {
    const path = `spec.${secret.field}`;
    const value = values.values.get(path);
    if (value !== undefined) return value;
    throw refusal({
      disposition: "retryable",
      code: "SecretUnavailable",
      operation,
      object: name,
      field: path,
      message: `${path}: ${operation} on ${runtime.noun} "${name}" needs ${secret.noun}, and the value of the Secret key ${path} names was not available; retrying`,
    });
  };
  return {
    /** The spec fields that hold secrets (never sent as the spec has them). */
    fields: new Set(inputs.map((s) => s.field)),
    /** ServiceModule.secretFields: each secret the spec names, by spec path. */
    references(spec: Fields): SecretField[] {
      return inputs.flatMap((s) => {
        const ref = spec[s.field] as { name: string; key: string; namespace?: string } | undefined;
        if (ref === undefined) return [];
        const { name, key, namespace } = ref;
        return [
          { path: `spec.${s.field}`, ref: { name, key, ...(namespace === undefined ? {} : { namespace }) } },
        ];
      });
    },
    /** The create call's secret members: each the spec names, from its Secret. */
    forCreate(spec: Fields, values: SecretValues, operation: string, name: string): Fields {
      return Object.fromEntries(
        inputs
          .filter((s) => spec[s.field] !== undefined)
          .map((s) => [s.aws, secretValue(s, values, operation, name)]),
      );
    },
    /**
     * The secrets a group's set call carries again (FieldGroup.secrets): when the Secret changed, or
     * when the declared change of another field needs it; each with its value.
     */
    resent(
      carried: readonly string[],
      desired: Fields,
      observed: Fields,
      values: SecretValues,
      operation: string,
      name: string,
    ): { readonly aws: string; readonly field: string; readonly value: string }[] {
      return inputs
        .filter((s) => {
          if (!carried.includes(s.aws)) return false;
          if (values.changed.includes(`spec.${s.field}`)) return true;
          const also = s.alsoWhen;
          if (also === undefined) return false;
          const field = specFieldOf(generated.codecs, also.field);
          return desired[field] === also.to && observed[field] === also.from;
        })
        .map((s) => ({ aws: s.aws, field: s.field, value: secretValue(s, values, operation, name) }));
    },
    /** The spec paths whose secret (or sensitive) values an input carries: AWS's answer is then withheld. */
    carriedIn(input: Fields): { secretFields?: string[] } {
      const paths = [...inputs.map((s) => s.aws), ...(runtime.sensitive ?? [])]
        .filter((aws) => input[aws] !== undefined)
        .map((aws) => `spec.${fieldOf(aws)}`);
      return paths.length === 0 ? {} : { secretFields: paths };
    },
    /** Adoption: AWS never reveals a secret, so the spec's reference stays what it is. */
    keptFrom(spec: Fields): Fields {
      return Object.fromEntries(
        inputs.flatMap((s) => (spec[s.field] === undefined ? [] : [[s.field, spec[s.field]]])),
      );
    },
  };
}
