// The kinds this crossrole reconciles, by kind name, without loading their modules (and the AWS
// SDK): `crossrole explain` and flag validation need the list, not the code. served.test.ts
// keeps it equal to the modules listed in registry.ts.
export const servedKindNames: readonly string[] = ["Bucket", "Topic", "Queue", "Table", "DBInstance"];

export function isServed(kindName: string): boolean {
  return servedKindNames.includes(kindName);
}
