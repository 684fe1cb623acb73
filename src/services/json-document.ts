// Spec fields that hold a JSON document as a string (access policies, delivery policies, redrive
// policies), as ACK's do. Only zod checks the JSON: CEL cannot parse it.
import { stringField } from "../api/validation.ts";

/** Whether `s` is a JSON object (what AWS's policy documents are). */
export function isJsonObject(s: string): boolean {
  try {
    const parsed: unknown = JSON.parse(s);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The service's limit on such a document and what removing the field means there. */
export interface JsonDocumentLimit {
  /** In characters; a multiple of 1024, named in KB in the message. */
  readonly maxLength: number;
  /** The service's name, for the message on a too-long document ("SQS"). */
  readonly service: string;
  /** The end of "remove it …" in the message on an empty one ("for no policy"). */
  readonly ifRemoved: string;
}

/** A non-empty JSON object document within the service's limit; `example` shows one. */
export function jsonDocumentField(field: string, example: string, limit: JsonDocumentLimit) {
  return stringField(field)
    .min(1, `${field} must not be empty; remove it ${limit.ifRemoved}`)
    .max(limit.maxLength, `${field} must be at most ${limit.maxLength / 1024} KB (${limit.service} limit)`)
    .refine((s) => isJsonObject(s), { message: `${field} must be a JSON document, e.g. ${example}` });
}
