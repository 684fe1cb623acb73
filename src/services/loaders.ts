// The service modules by kind name, loaded on demand (catalog.ts says why): `crossrole run`
// imports a kind's module only once a resource of the kind exists.
import { type AnyServiceModule, servedKindCatalog } from "./catalog.ts";

export const serviceModuleLoaders: Readonly<Record<string, () => Promise<AnyServiceModule>>> =
  Object.fromEntries(Object.entries(servedKindCatalog).map(([kind, entry]) => [kind, entry.module]));
