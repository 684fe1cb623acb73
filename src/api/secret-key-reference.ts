// ACK's SecretKeyReference: one key of a Secret, where a spec field's value is secret (a
// DBInstance's masterUserPassword). crossrole reads it from the resource's own namespace only;
// `namespace` may name that namespace (ACK manifests often do) and nothing else
// (src/controller/secret-inputs.ts). The value itself never enters the spec.
import { z } from "zod";
import { namespaceNameField, objectNameField, stringField } from "./validation.ts";

/** The reference for the spec field `field` (its messages name the field). */
export function secretKeyReference(field: string) {
  const keyMessage = `${field}.key must name a key of the Secret (letters, digits, '-', '_', '.')`;
  return z
    .object(
      {
        namespace: namespaceNameField(`${field}.namespace`)
          .describe("The Secret's namespace: the resource's own (another namespace is refused).")
          .optional(),
        name: objectNameField(`${field}.name`).describe("The Secret's name."),
        key: stringField(`${field}.key`)
          .min(1, keyMessage)
          .max(253, `${field}.key must be at most 253 characters`)
          .regex(/^[-._a-zA-Z0-9]+$/, keyMessage)
          .describe("The key of the Secret whose value is used."),
      },
      {
        error: (issue) =>
          issue.input === undefined
            ? `${field} is required`
            : `${field} must be a Secret key reference {name, key} (ACK's SecretKeyReference), never the secret itself`,
      },
    )
    .meta({ "x-kubernetes-map-type": "atomic" });
}

export type SecretKeyReference = z.infer<ReturnType<typeof secretKeyReference>>;
