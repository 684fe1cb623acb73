// ACK's reference to another ACK resource (`AWSResourceReferenceWrapper`): `{from: {name,
// namespace}}` beside the plain field it stands for (`kmsKeyRef` beside `kmsKeyID`). The shape
// is ACK's, so that an ACK manifest applies unchanged; what a reference may resolve to is the
// reconciler's rule (DESIGN §2.1), not the schema's.
import { z } from "zod";

const referenceDescription =
  "A reference to another Kubernetes resource whose AWS identifier (ID, ARN or name) fills the plain field beside this one.";

const fromSchema = z
  .object({
    name: z.string().describe("The referenced resource's name.").optional(),
    namespace: z
      .string()
      .describe("The referenced resource's namespace; the referring resource's own when left out.")
      .optional(),
  })
  .describe("The referenced resource.");

/** One reference (ACK's `*Ref`). */
export function ackReference() {
  return z.object({ from: fromSchema.optional() }).describe(referenceDescription);
}

/** A list of references (ACK's `*Refs`, beside a list of identifiers). */
export function ackReferences() {
  return z.array(ackReference());
}

export type AckReference = z.infer<ReturnType<typeof ackReference>>;
