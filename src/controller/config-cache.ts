// The administrator's configuration as the resolver sees it: informers on Namespaces, the CARM
// ConfigMaps and static-identity Secrets (system namespace only), IAMRoleSelectors and the
// identity kinds, folded into one resolver Snapshot. The snapshot is rebuilt lazily after a
// change, and listeners hear about changes (coalesced) so the controllers can re-queue exactly
// the resources whose decision changed.
import type { SecretData, SecretReader } from "../credentials/secret-reader.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ObjectRef } from "../resolver/types.ts";
import type { Informer } from "../runtime/informer.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import type { Manager } from "../runtime/manager.ts";
import type { SyncGate } from "../runtime/sync-gate.ts";
import {
  configMapType,
  iamRoleSelectorType,
  identityTypes,
  namespaceType,
  secretType,
} from "./config-types.ts";
import { recordLabel } from "./records/record-store.ts";
import { SpecVersions } from "./spec-versions.ts";

export interface ConfigCacheOptions {
  readonly manager: Manager;
  /** Where the CARM ConfigMaps and static-identity Secrets live. */
  readonly systemNamespace: string;
  /**
   * `--watch-namespace`: only these Namespace objects are read (one field-selected watch each)
   * and namespaced identities only there. Absent: every namespace.
   */
  readonly watchNamespaces?: readonly string[];
}

type SecretObject = KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> };

export class ConfigCache implements SyncGate {
  readonly name = "crossrole configuration";
  readonly #systemNamespace: string;
  readonly #namespaces: Informer[];
  readonly #configMaps: Informer;
  readonly #secrets: Informer<SecretObject>;
  readonly #selectors: Informer;
  readonly #identities: Informer[];
  readonly #selectorVersions = new SpecVersions();
  readonly #changeListeners = new Set<() => void>();
  readonly #secretListeners = new Set<(name: string) => void>();
  #snapshot: Snapshot | undefined;
  #changePending = false;

  constructor(opts: ConfigCacheOptions) {
    const m = opts.manager;
    this.#systemNamespace = opts.systemNamespace;
    const watch =
      opts.watchNamespaces && opts.watchNamespaces.length > 0 ? [...opts.watchNamespaces] : undefined;
    this.#namespaces = watch
      ? watch.map((ns) => m.informer({ resource: namespaceType, fieldSelector: `metadata.name=${ns}` }))
      : [m.informer({ resource: namespaceType })];
    this.#configMaps = m.informer({ resource: configMapType, namespaces: [opts.systemNamespace] });
    this.#secrets = m.informer<SecretObject>({ resource: secretType, namespaces: [opts.systemNamespace] });
    this.#selectors = m.informer({ resource: iamRoleSelectorType });
    this.#identities = identityTypes.map((t) =>
      m.informer({ resource: t, ...(watch ? { namespaces: watch } : {}) }),
    );

    const changed = () => this.#changed();
    for (const inf of this.#namespaces) {
      inf.addHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
    }
    // The controller's own records share the system namespace (records/record-store.ts) and this
    // cache of it; they configure nothing, so writing one must not re-decide every resource.
    const configures = (obj: KubeObject) => obj.metadata.labels?.[recordLabel] === undefined;
    this.#configMaps.addHandler({
      onAdd: (obj) => configures(obj) && changed(),
      onUpdate: (a, b) => (configures(a) || configures(b)) && changed(),
      onDelete: (obj) => configures(obj) && changed(),
    });
    // An identity's status and finalizer are the controller's own record of its users
    // (identity-controller.ts), written whenever they change: no decision depends on them, so
    // they must not cost a re-evaluation of every resource. Only the spec configures.
    const specChanged = (a: KubeObject, b: KubeObject) => {
      if (JSON.stringify(a["spec"]) !== JSON.stringify(b["spec"])) changed();
    };
    for (const inf of this.#identities) {
      inf.addHandler({ onAdd: changed, onUpdate: specChanged, onDelete: changed });
    }
    // The same for a selector's status (selector-controller.ts), and decisions see the spec's
    // resourceVersion, not the status write's (spec-versions.ts).
    this.#selectors.addHandler({
      onAdd: (obj) => {
        this.#selectorVersions.observe(obj);
        changed();
      },
      onUpdate: (a, b) => {
        this.#selectorVersions.observe(b);
        specChanged(a, b);
      },
      onDelete: (obj) => {
        this.#selectorVersions.forget(obj);
        changed();
      },
    });
    const secretChanged = (s: SecretObject) => {
      for (const l of this.#secretListeners) l(s.metadata.name);
    };
    this.#secrets.addHandler({
      onAdd: secretChanged,
      onUpdate: (_o, n) => secretChanged(n),
      onDelete: secretChanged,
    });
  }

  get systemNamespace(): string {
    return this.#systemNamespace;
  }

  #all(): Informer[] {
    return [
      ...this.#namespaces,
      this.#configMaps,
      this.#secrets as Informer,
      this.#selectors,
      ...this.#identities,
    ];
  }

  hasSynced(): boolean {
    return this.#all().every((i) => i.hasSynced());
  }

  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    for (const i of this.#all()) if (!(await i.waitForSync(signal))) return false;
    return true;
  }

  /** Names of the informers that have not synced yet (for /readyz and logs). */
  waiting(): string[] {
    return this.#all()
      .filter((i) => !i.hasSynced())
      .map((i) => i.name);
  }

  /** The current snapshot; rebuilt only after a configuration change. */
  snapshot(): Snapshot {
    this.#snapshot ??= buildSnapshot(
      {
        namespaces: this.#namespaces.flatMap((i) => i.list()),
        configMaps: this.#configMaps.list(),
        iamRoleSelectors: this.#selectors.list().map((obj) => this.#selectorVersions.stable(obj)),
        identities: this.#identities.flatMap((i) => i.list()),
      },
      { systemNamespace: this.#systemNamespace },
    );
    return this.#snapshot;
  }

  /**
   * The cached object a snapshot problem names (Events about the problem are attached to it, and
   * need its uid to show in `kubectl describe`); undefined when it is gone or not watched.
   */
  object(ref: ObjectRef): KubeObject | undefined {
    const ns = ref.namespace ?? "";
    switch (ref.kind) {
      case "Namespace":
        return this.#namespaces.map((i) => i.get("", ref.name)).find((o) => o !== undefined);
      case "ConfigMap":
        return this.#configMaps.get(ns, ref.name);
      case "IAMRoleSelector":
        return this.#selectors.get("", ref.name);
      default: {
        const i = identityTypes.findIndex((t) => t.kind === ref.kind);
        return i < 0 ? undefined : this.#identities[i]?.get(ns, ref.name);
      }
    }
  }

  /** A Namespace's annotations (deletion-policy defaults live there), or undefined if unknown. */
  namespaceAnnotations(name: string): Readonly<Record<string, string>> | undefined {
    for (const inf of this.#namespaces) {
      const ns = inf.get("", name);
      if (ns) return ns.metadata.annotations ?? {};
    }
    return undefined;
  }

  /** Called (at most once per burst of changes) after the configuration changed. */
  onChange(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Called with a Secret's name when a Secret in the system namespace changed. */
  onSecretChange(listener: (name: string) => void): () => void {
    this.#secretListeners.add(listener);
    return () => this.#secretListeners.delete(listener);
  }

  /** Static-identity Secrets, served from the informer cache (no API call per reconcile). */
  readonly secretReader: SecretReader = {
    read: async (namespace, name) => {
      const s = namespace === this.#systemNamespace ? this.#secrets.get(namespace, name) : undefined;
      if (!s) return null;
      const data: Record<string, string> = {};
      for (const [k, v] of Object.entries(s.data ?? {})) data[k] = Buffer.from(v, "base64").toString("utf8");
      for (const [k, v] of Object.entries(s.stringData ?? {})) data[k] = v;
      return data as SecretData;
    },
  };

  #changed(): void {
    this.#snapshot = undefined;
    if (this.#changePending) return;
    this.#changePending = true;
    // Coalesce a burst of events (a relist, kubectl apply -f dir/) into one re-evaluation.
    setImmediate(() => {
      this.#changePending = false;
      for (const l of this.#changeListeners) l();
    });
  }
}
