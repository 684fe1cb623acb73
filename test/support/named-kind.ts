// The integration tests' harness for a kind named by its spec (a log group, an alias), as
// assigned-kind.ts is for a kind AWS names: two accounts against the emulator (two-accounts.ts),
// this one's through the recording proxy, the ownership tags of one resource, and what each test
// does with such a kind — a unique name, a spec parsed as the reconciler parses it, the object
// read (found, or the test fails), created and updated as that resource's.
import assert from "node:assert/strict";
import type { AwsCredentialIdentity } from "@smithy/types";
import type { DeclaredClient, DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { noSecrets, type ServiceModule } from "../../src/services/service-module.ts";
import { type AccountClient, startTwoAccounts, type TwoAccounts } from "./two-accounts.ts";

type Spec = Record<string, unknown>;

export interface NamedKindHarness<Sdk> extends TwoAccounts<Sdk> {
  /** The ownership tags of the one resource the tests act as. */
  readonly owner: Readonly<Record<string, string>>;
  /** A name no other test of the process uses: `<prefix><label>-<pid>-<n>`. */
  uniqueName(label: string): string;
  /** The spec as the reconciler has it (parsed by the kind's schema), `base` and `extra` beside the name. */
  spec(name: string, extra?: Spec): Spec;
  /** What `client`'s account holds under the spec's name (found, or the test fails). */
  observed(client: AccountClient<Sdk>, spec: Spec): Promise<DeclaredObserved>;
  /** Created in this account as the resource's. */
  create(spec: Spec): ReturnType<ServiceModule<Spec, DeclaredObserved, DeclaredClient<Sdk>>["create"]>;
  /** AWS brought from `observed` to `desired` as the resource's: the spec paths changed. */
  update(desired: Spec, observed: DeclaredObserved): Promise<readonly string[]>;
}

export async function namedKindHarness<Sdk extends { destroy(): void }>(o: {
  readonly label: string;
  readonly region: string;
  /** The resource the tests act as: its kind, namespace, name and uid. */
  readonly resource: {
    readonly kind: string;
    readonly namespace: string;
    readonly name: string;
    readonly uid: string;
  };
  readonly client: (endpoint: string, credentials: AwsCredentialIdentity) => Sdk;
  readonly service: ServiceModule<Spec, DeclaredObserved, DeclaredClient<Sdk>>;
  /** The spec field naming the object (`name`), and what every spec has besides it. */
  readonly nameField?: string;
  readonly base?: Spec;
  /** Before each unique name (a log group's `/crossrole/`). */
  readonly prefix?: string;
}): Promise<NamedKindHarness<Sdk>> {
  const { service, region, resource } = o;
  const accounts = await startTwoAccounts(o.label, region, o.client);
  const client = (c: AccountClient<Sdk>) => c as unknown as DeclaredClient<Sdk>;
  const owner = {
    "services.k8s.aws/namespace": resource.namespace,
    "services.k8s.aws/owner": `${resource.kind}/${resource.namespace}/${resource.name}`,
    "services.k8s.aws/owner-uid": resource.uid,
    "services.k8s.aws/controller-version": "crossrole-test",
  };
  let counter = 0;
  return {
    ...accounts,
    owner,
    uniqueName: (label) => `${o.prefix ?? "crossrole-"}${label}-${process.pid}-${++counter}`,
    spec(name, extra = {}) {
      const r = service.parseSpec({ ...o.base, [o.nameField ?? "name"]: name, ...extra });
      assert.ok(r.ok, r.ok ? "" : r.message);
      return r.value;
    },
    async observed(c, spec) {
      const r = await service.read(client(c), spec, {});
      assert.ok(r.found, "found");
      return r.observed;
    },
    create: (spec) => service.create(client(accounts.mine), spec, region, owner, {}, noSecrets),
    update: (desired, observed) =>
      service.update(client(accounts.mine), desired, observed, owner, {}, noSecrets),
  };
}
