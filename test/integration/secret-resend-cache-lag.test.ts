// A Secret's value is sent to AWS once, even when the informer's watch lags behind our own
// writes. The reconciler is driven directly against the real kube-apiserver and the real AWS
// emulator, with the cache held back by hand: the second reconcile takes the object as it was
// before the first one's last status write (the one recording status.appliedSecrets), and that
// write's echo arrives while the second reconcile is awaiting the Secret. Deciding "our writes
// are all seen" after that await, instead of when the object was taken from the cache, sent the
// master password to RDS again (seen once in ten e2e runs before this was fixed).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pino from "pino";
import { Registry } from "prom-client";
import type { ConfigCache } from "../../src/controller/config-cache.ts";
import { ControllerKeyStore } from "../../src/controller/controller-key.ts";
import { DecisionTracker } from "../../src/controller/decision-tracker.ts";
import { kubeObjectStore, type ManagedObject } from "../../src/controller/reconcile/object-store.ts";
import { createResourceReconciler } from "../../src/controller/reconcile/reconciler.ts";
import { resourceTypeOf } from "../../src/controller/resource-controller.ts";
import type { SecretGetter, SecretObject } from "../../src/controller/secret-inputs.ts";
import { SelfWrites } from "../../src/controller/self-writes.ts";
import { createCredentialService } from "../../src/credentials/service.ts";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { applyObjects } from "../../src/local-stack/manifests.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { buildSnapshot } from "../../src/resolver/snapshot.ts";
import { EventRecorder } from "../../src/runtime/events.ts";
import type { Informer } from "../../src/runtime/informer.ts";
import { createKubeClient, type KubeClient, type KubeRequest } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { dbInstanceService } from "../../src/services/rds/db-instance.ts";
import type { ServiceModule } from "../../src/services/service-module.ts";
import { useControllerEnvironment } from "../support/credentials-fixture.ts";
import { readMotoRecording } from "../support/moto-recording.ts";
import { settingsWith } from "../support/resolver-fixtures.ts";

const ns = "lag";
const name = "orders";
const id = `${ns}-${name}`;
const password = "lag-Pw-123456";
const objectPath = `/apis/rds.services.k8s.aws/v1alpha1/namespaces/${ns}/dbinstances/${name}`;

let stack: Stack;
let kube: KubeClient;

before(async () => {
  useControllerEnvironment();
  stack = await startStack({ awsRecording: true });
  kube = createKubeClient(stack.kubeConfig);
  await installCrds(kube);
  await applyObjects(kube, [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
    { apiVersion: "v1", kind: "Secret", metadata: { name: "db", namespace: ns }, stringData: { password } },
    {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name, namespace: ns },
      spec: {
        dbInstanceIdentifier: id,
        dbInstanceClass: "db.t3.micro",
        engine: "postgres",
        engineVersion: "16.3",
        allocatedStorage: 20,
        masterUsername: "shop_admin",
        masterUserPassword: { name: "db", key: "password" },
      },
    } as KubeObject,
  ]);
});
after(() => stack?.stop());

test("the echo of our last status write arrives during the Secret read: the password is not sent again", async () => {
  const logger = pino({ level: "silent" });
  const settings = settingsWith({
    defaultRegion: "us-east-1",
    defaultEndpoint: stack.awsEndpoint ?? null,
    controllerAccount: "123456789012",
  });
  const snapshot = buildSnapshot({ namespaces: [{ metadata: { name: ns } }] }, settings);
  const config = { snapshot: () => snapshot, namespaceAnnotations: () => ({}) } as unknown as ConfigCache;
  const credentials = createCredentialService({
    logger,
    registry: new Registry(),
    systemNamespace: "ack-system",
  });

  // Every object our writes to the DBInstance returned, in order.
  const written: ManagedObject[] = [];
  const recording: KubeClient = {
    async request<T>(req: KubeRequest): Promise<T> {
      const out = await kube.request<T>(req);
      if (req.method === "PATCH" && req.path.startsWith(objectPath)) written.push(out as ManagedObject);
      return out;
    },
    watch: (req) => kube.watch(req),
  };
  // The cache, as the test lets the watch deliver it.
  let cached: ManagedObject | undefined;
  const informer = { get: () => cached } as unknown as Informer<ManagedObject>;
  const selfWrites = new SelfWrites();
  let whileReadingSecret: (() => void) | undefined;
  const getSecret: SecretGetter = async (namespace, secretName) => {
    const secret = await kube.request<SecretObject>({
      method: "GET",
      path: `/api/v1/namespaces/${namespace}/secrets/${secretName}`,
    });
    whileReadingSecret?.();
    return secret;
  };
  const module = dbInstanceService as unknown as ServiceModule<object, unknown, unknown>;
  const resourceType = resourceTypeOf(module.kind);
  const reconcile = createResourceReconciler({
    module,
    resourceType,
    store: kubeObjectStore({
      kube: recording,
      resourceType,
      informer,
      events: new EventRecorder({ client: kube, component: "crossrole-test" }),
      getSecret,
    }),
    config,
    credentials,
    tracker: new DecisionTracker("DBInstance", logger),
    settings,
    deletionPolicy: "delete",
    logger,
    selfWrites,
    // The key as the system namespace's Secret informer would serve it.
    controllerKey: new ControllerKeyStore({
      kube,
      systemNamespace: "ack-system",
      secrets: { read: async () => ({ key: Buffer.alloc(32, 3).toString("base64") }) },
    }),
  });
  const req = { namespace: ns, name, key: `${ns}/${name}` };

  try {
    // First reconcile: created with the password, Synced, status.appliedSecrets written last.
    cached = await kube.request<ManagedObject>({ method: "GET", path: objectPath });
    await reconcile(req);
    const last = written.at(-1);
    assert.ok(
      last?.status?.["appliedSecrets"],
      "the first reconcile's last write records the Secret version",
    );
    const before = written.at(-2);
    assert.ok(before && before.status?.["appliedSecrets"] === undefined, "the write before it does not");

    // Second reconcile (a Secret event re-queued it): the watch has delivered everything but the
    // last status write, and delivers that one while the reconcile reads the Secret.
    cached = before;
    whileReadingSecret = () => {
      cached = last;
      selfWrites.forget(req.key);
    };
    await reconcile(req);
  } finally {
    credentials.close();
  }

  const recorded = await readMotoRecording(stack.emulator?.recordingPath ?? "");
  const sends = recorded.filter(
    (r) => r.params["DBInstanceIdentifier"] === id && r.params["MasterUserPassword"] !== undefined,
  );
  assert.deepEqual(
    sends.map((r) => r.params["Action"]),
    ["CreateDBInstance"],
    "the password is sent once, at creation",
  );
});
