// Every kind crossrole knows has a service module and so a CRD; a kind without one is refused
// by name instead of getting a CRD that accepts objects nothing reconciles.
import assert from "node:assert/strict";
import { test } from "node:test";
import { resourceKinds } from "./api/kinds.ts";
import { crdSourcesOf, resourceCrdSources } from "./crd-sources.ts";
import { serviceCrdSources } from "./services/crds.ts";
import { servedKindNames } from "./services/served.ts";

test("every known kind is served and has its module's CRD", () => {
  assert.deepEqual(
    resourceCrdSources.map((s) => s.names.kind),
    resourceKinds.map((k) => k.kind),
  );
  assert.deepEqual([...servedKindNames].sort(), resourceKinds.map((k) => k.kind).sort());
});

test("a kind without a service module is refused, naming it and the fix", () => {
  const { DBInstance: _missing, ...withoutRds } = serviceCrdSources;
  assert.throws(
    () => crdSourcesOf(resourceKinds, withoutRds),
    /no service module serves rds\.services\.k8s\.aws\/v1alpha1 DBInstance: crossrole installs no CRD for a kind it does not reconcile \(add src\/services\/<service>\//,
  );
});
