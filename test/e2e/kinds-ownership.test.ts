// The ownership rules of DESIGN §3.5 and the read-only policy hold for EVERY served kind, in one
// controller process, checked in the emulator as the owning account itself:
//   - a name another object owns is NameTaken (naming the owner), and deleting the loser leaves
//     the winner's AWS object alone;
//   - retained, then recreated under the same name: AlreadyExists until adoption-policy adopt;
//   - read-only never creates a missing object, reads an untagged one, refuses another object's
//     (NameTaken: reading it would copy another tenant's object into status), and deleting it
//     leaves the object in AWS.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { KindName } from "../../src/api/kinds.ts";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { servedKindCatalog } from "../../src/services/catalog.ts";
import { minimalKinds, minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import { createOutOfBand } from "../support/out-of-band.ts";
import {
  condition,
  configMap,
  controllerAccount,
  deleteResourceAndWait,
  type E2E,
  eventsAbout,
  namespace,
  patchResource,
  region,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const account = "111111111111";
const accounts = [controllerAccount, account, "222222222222"];
const annotation = {
  deletionPolicy: "services.k8s.aws/deletion-policy",
  adoptionPolicy: "services.k8s.aws/adoption-policy",
  readOnly: "services.k8s.aws/read-only",
};

let e2e: E2E;
const held = (kind: string, awsName: string) =>
  accountsHoldingResource(e2e.stack.awsEndpoint ?? "", kind, awsName, region, accounts);
const awsName = (kind: string, what: string) => `own-${kind.toLowerCase()}-${what}`;

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace("own-a", { "services.k8s.aws/owner-account-id": account }),
    namespace("own-b", { "services.k8s.aws/owner-account-id": account }),
    configMap("ack-role-account-map", { [account]: `arn:aws:iam::${account}:role/owners` }),
    ...namespaceObjectsFor(minimalKinds, "own-a"),
    ...namespaceObjectsFor(minimalKinds, "own-b"),
  ]);
  await e2e.startController();
});
after(() => e2e?.stop());

for (const kind of minimalKinds) {
  describe(`${kind}: ownership and read-only`, () => {
    const shared = awsName(kind, "shared");
    // What AWS calls it, as messages name it (an alias: alias/<name>).
    let sharedId = shared;
    before(async () => {
      const module = await servedKindCatalog[kind as KindName].module();
      const parsed = module.parseSpec(minimalResource(kind, "own-a", "first", shared, {}, account)["spec"]);
      assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
      sharedId = module.identifier(parsed.value);
      await e2e.apply([minimalResource(kind, "own-a", "first", shared, {}, account)]);
      await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-a",
        "first",
        "ACK.ResourceSynced",
        "True",
        undefined,
        30_000,
      );
    });

    test("a name another object owns is NameTaken naming the owner; deleting the loser leaves the object", async () => {
      await e2e.apply([minimalResource(kind, "own-b", "twin", shared, {}, account)]);
      const twin = await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-b",
        "twin",
        "ACK.Terminal",
        "True",
        "NameTaken",
      );
      assert.match(condition(twin, "ACK.Terminal")?.message ?? "", new RegExp(`${kind}/own-a/first`));
      // The kind as users write it (DBInstance, never "Dbinstance"), naming the AWS object.
      assert.match(
        condition(twin, "ACK.Terminal")?.message ?? "",
        new RegExp(`^${kind} "${sharedId}" in account ${account} `),
      );
      await deleteResourceAndWait(e2e.kube, kind, "own-b", "twin");
      assert.deepEqual(await held(kind, shared), [account], "the owner's object is still there");
      await waitForResourceCondition(e2e.kube, kind, "own-a", "first", "ACK.ResourceSynced", "True");
    });

    test("retained, then recreated under the same name: AlreadyExists until adopted", async () => {
      await patchResource(e2e.kube, kind, "own-a", "first", {
        metadata: { annotations: { [annotation.deletionPolicy]: "retain" } },
      });
      await deleteResourceAndWait(e2e.kube, kind, "own-a", "first");
      assert.deepEqual(await held(kind, shared), [account], "retain leaves it in AWS");

      await e2e.apply([minimalResource(kind, "own-a", "first", shared, {}, account)]);
      const again = await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-a",
        "first",
        "ACK.Terminal",
        "True",
        "AlreadyExists",
      );
      assert.match(
        condition(again, "ACK.Terminal")?.message ?? "",
        new RegExp(
          `^${kind} "${sharedId}" in account ${account} .*created by an earlier object of the same name`,
        ),
      );
      assert.match(
        condition(again, "ACK.Terminal")?.message ?? "",
        /services\.k8s\.aws\/adoption-policy: adopt/,
      );

      await patchResource(e2e.kube, kind, "own-a", "first", {
        metadata: { annotations: { [annotation.adoptionPolicy]: "adopt" } },
      });
      await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-a",
        "first",
        "ACK.ResourceSynced",
        "True",
        undefined,
        30_000,
      );
      const events = await eventsAbout(e2e.kube, "own-a", kind, "first");
      assert.ok(
        events.some((e) => e.reason === "Adopted"),
        "an Adopted Event",
      );
      assert.deepEqual(await held(kind, shared), [account], "adopted, not created again");
    });

    test("read-only: a missing object is never created; another object's is NameTaken and nothing of it is read into status; an untagged one is read; deleting leaves them", async () => {
      const missing = awsName(kind, "missing");
      const untagged = awsName(kind, "untagged");
      await createOutOfBand(e2e.stack.awsEndpoint ?? "", kind, untagged, account);
      const readOnly = (name: string, aws: string) => {
        const obj = minimalResource(kind, "own-b", name, aws, {}, account);
        return { ...obj, metadata: { ...obj.metadata, annotations: { [annotation.readOnly]: "true" } } };
      };
      await e2e.apply([
        readOnly("ro-missing", missing),
        readOnly("ro-others", shared),
        readOnly("ro-untagged", untagged),
      ]);
      await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-b",
        "ro-missing",
        "ACK.Recoverable",
        "True",
        "NotFound",
      );
      assert.deepEqual(await held(kind, missing), [], "read-only created nothing");

      // own-a's object, in the account both namespaces are granted: not to be read from own-b.
      const refused = await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-b",
        "ro-others",
        "ACK.Terminal",
        "True",
        "NameTaken",
      );
      assert.match(condition(refused, "ACK.Terminal")?.message ?? "", new RegExp(`${kind}/own-a/first`));
      assert.deepEqual(
        Object.keys(refused.status ?? {}).sort(),
        ["conditions"],
        "nothing of the other owner's object (ARN, attributes, policy, endpoint) in status",
      );

      const read = await waitForResourceCondition(
        e2e.kube,
        kind,
        "own-b",
        "ro-untagged",
        "ACK.ResourceSynced",
        "True",
      );
      assert.equal(read.status?.ackResourceMetadata?.ownerAccountID, account);
      assert.ok(read.status?.ackResourceMetadata?.arn, "the ARN is recorded");
      for (const name of ["ro-untagged", "ro-others", "ro-missing"])
        await deleteResourceAndWait(e2e.kube, kind, "own-b", name);
      assert.deepEqual(await held(kind, shared), [account], "deleting a read-only resource deletes nothing");
      assert.deepEqual(await held(kind, untagged), [account]);
      await waitForResourceCondition(e2e.kube, kind, "own-a", "first", "ACK.ResourceSynced", "True");
    });
  });
}
