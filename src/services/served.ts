// The kinds this crossrole reconciles, by kind name, without loading their modules (and the AWS
// SDK): `crossrole explain` and flag validation need the list, not the code. served.test.ts
// keeps it equal to the modules listed in registry.ts.
import { resourceKinds } from "../api/kinds.ts";

export const servedKindNames: readonly string[] = ["Bucket", "Topic", "Queue", "Table", "DBInstance"];

export function isServed(kindName: string): boolean {
  return servedKindNames.includes(kindName);
}

/** The served kinds' services (s3, sqs, ...): the only prefixes a CARM lookup ever composes. */
export const servedServices: readonly string[] = resourceKinds
  .filter((k) => isServed(k.kind))
  .map((k) => k.service);
