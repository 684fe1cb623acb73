// The integration tests' harness for a kind AWS names by an ID it assigns (a KMS key, an EC2 VPC,
// subnet or security group): two accounts against the emulator (two-accounts.ts), the kind's
// client as the pool builds it (its factory: a create sent once), and what each test does with
// such a kind — make one as a resource's (the spec then names it by the ID the create answered),
// read it, and bring AWS to a spec as the reconciler does (the differing groups written, then
// read back and compared).
import assert from "node:assert/strict";
import type { ClientFactory } from "../../src/credentials/client-pool.ts";
import { sdkMaxAttempts } from "../../src/credentials/client-pool.ts";
import type { DeclaredClient, DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { noSecrets, type ServiceModule } from "../../src/services/service-module.ts";
import { type AccountClient, startTwoAccounts, type TwoAccounts, writesOnly } from "./two-accounts.ts";

type Spec = Record<string, unknown>;

export interface AssignedKindHarness<Sdk> {
  readonly accounts: TwoAccounts<Sdk>;
  /** The ownership tags of resource `uid` of this kind, in namespace `namespace`. */
  ownerOf(uid: string): Record<string, string>;
  /** Makes the object as resource `uid`'s; the spec naming it by the ID the create answered. */
  made(desired: Spec, uid: string): Promise<{ named: Spec; id: string; uid: string }>;
  /** What `client`'s account holds under the ID `spec` names (found, or the test fails). */
  observed(client: AccountClient<Sdk>, spec: Spec): Promise<DeclaredObserved>;
  /** AWS brought to `spec` as the reconciler does; the writes sent, and what AWS then has (no drift left). */
  converge(spec: Spec): Promise<{ sent: string[]; after: DeclaredObserved }>;
  /** The kind's assigned-ID half (withId, findTagged). */
  assigned(): NonNullable<ServiceModule<Spec, DeclaredObserved, DeclaredClient<Sdk>>["assigned"]>;
}

export async function assignedKindHarness<Sdk extends { destroy(): void }>(o: {
  readonly label: string;
  readonly region: string;
  readonly kind: string;
  readonly namespace: string;
  readonly factory: ClientFactory<Sdk>;
  readonly service: ServiceModule<Spec, DeclaredObserved, DeclaredClient<Sdk>>;
}): Promise<AssignedKindHarness<Sdk>> {
  const { service, region } = o;
  const accounts = await startTwoAccounts(o.label, region, (endpoint, credentials) =>
    o.factory.create({
      region,
      endpoint,
      credentials: async () => credentials,
      customUserAgent: "crossrole/test",
      retryMode: "adaptive",
      maxAttempts: sdkMaxAttempts,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000, throwOnRequestTimeout: true },
    }),
  );
  const client = (c: AccountClient<Sdk>) => c as unknown as DeclaredClient<Sdk>;
  const ownerOf = (uid: string) => ({
    "services.k8s.aws/namespace": o.namespace,
    "services.k8s.aws/owner": `${o.kind}/${o.namespace}/${uid}`,
    "services.k8s.aws/owner-uid": uid,
    "services.k8s.aws/controller-version": "crossrole-test",
  });
  const assigned = () => {
    assert.ok(service.assigned, `${o.kind} is named by the ID AWS assigns`);
    return service.assigned;
  };
  const observed = async (c: AccountClient<Sdk>, spec: Spec) => {
    const r = await service.read(client(c), spec, {});
    assert.ok(r.found, "found");
    return r.observed;
  };
  return {
    accounts,
    ownerOf,
    assigned,
    observed,
    async made(desired, uid) {
      const created = await service.create(
        client(accounts.mine),
        desired,
        region,
        ownerOf(uid),
        {},
        noSecrets,
      );
      assert.ok(created.created && created.id !== undefined, "the create answers the ID");
      return { named: assigned().withId(desired, created.id), id: created.id, uid };
    },
    async converge(spec) {
      const before = await observed(accounts.mine, spec);
      const sent = await accounts.calls.during(() =>
        service.update(client(accounts.mine), spec, before, ownerOf("x"), {}, noSecrets),
      );
      const after = await observed(accounts.mine, spec);
      assert.deepEqual(service.diff(spec, after), [], "read back as set");
      return { sent: writesOnly(sent), after };
    },
  };
}
