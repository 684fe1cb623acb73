// ACK's string booleans ("true" / "false"): SQS and SNS keep their attributes in a
// string-valued map, and ACK's spec fields follow, so an ACK manifest applies unchanged.
import { z } from "zod";

export const stringBooleans = ["true", "false"] as const;
export type StringBoolean = (typeof stringBooleans)[number];

/** A spec field holding a string boolean. */
export function stringBooleanField(field: string) {
  return z.enum(stringBooleans, { error: `${field} must be the string "true" or "false"` });
}

/** An attribute as AWS says it ("true"/"false"; emulators sometimes "True"); anything else is false. */
export function stringBoolean(value: string | undefined): StringBoolean | undefined {
  if (value === undefined || value === "") return undefined;
  return value.toLowerCase() === "true" ? "true" : "false";
}
