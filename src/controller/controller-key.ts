// The controller's own secret key: what makes the records it keeps in a resource's status
// trustworthy although a tenant may write that status (DESIGN §3.4). A create intent counts only
// when it carries this key's MAC (a forged one would otherwise stand in for adoption), and the
// record of which secret value AWS has is a MAC of the value, never a plain hash a tenant could
// test guesses against.
//
// The key is 32 random bytes, base64, in the Secret `crossrole-controller-key` of the system
// namespace, where tenants have no access. The first controller that needs it creates it;
// replicas and restarts read the same one (through the system namespace's Secret informer).
// Deleting the Secret rotates the key: records made with the old one stop counting (a create
// interrupted at that moment then needs adoption), nothing else is lost.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { kubeSecretReader, type SecretReader } from "../credentials/secret-reader.ts";
import { isAlreadyExists, type KubeClient } from "../runtime/kube-client.ts";
import { collectionPath } from "../runtime/kube-object.ts";
import { secretType } from "./config-types.ts";

export const controllerKeySecret = "crossrole-controller-key";
/** The Secret's data key; its value is the key's bytes in base64. */
export const controllerKeyField = "key";
const keyBytes = 32;

/** MACs over a list of fields, with the controller's key. */
export interface ControllerKey {
  /** base64url HMAC-SHA256 of the fields (joined unambiguously). */
  mac(fields: readonly string[]): string;
  /** Whether `mac` is this key's MAC of the fields (constant time). */
  verify(fields: readonly string[], mac: string): boolean;
}

/** A ControllerKey over raw key bytes (pure; unit tests build one from fixed bytes). */
export function controllerKeyFrom(key: Uint8Array): ControllerKey {
  const mac = (fields: readonly string[]): string => {
    const h = createHmac("sha256", key);
    // Length-prefixed, so ["ab","c"] and ["a","bc"] differ.
    for (const f of fields) h.update(`${Buffer.byteLength(f)}:${f};`);
    return h.digest("base64url");
  };
  return {
    mac,
    verify(fields, given) {
      const want = Buffer.from(mac(fields));
      const got = Buffer.from(given);
      return got.length === want.length && timingSafeEqual(got, want);
    },
  };
}

/** Why the key is not available: names the Secret and the fix. */
export class ControllerKeyError extends Error {
  override readonly name = "ControllerKeyError";
}

export interface ControllerKeyStoreOptions {
  readonly kube: KubeClient;
  readonly systemNamespace: string;
  /** The system namespace's Secrets as cached (the config cache's informer). */
  readonly secrets: SecretReader;
  readonly random?: (n: number) => Uint8Array;
  readonly logger?: Logger;
}

/** Gets the key from the Secret, creating the Secret once if no controller has yet. */
export class ControllerKeyStore {
  readonly #o: ControllerKeyStoreOptions;
  /** The key this process created or read directly, while the informer has not shown it yet. */
  #direct: ControllerKey | undefined;
  #creating: Promise<ControllerKey> | undefined;
  /** The last key text parsed, and its key: a reconcile asks for it, the Secret rarely changes. */
  #parsed: { readonly text: string; readonly key: ControllerKey } | undefined;

  constructor(o: ControllerKeyStoreOptions) {
    this.#o = o;
  }

  get where(): string {
    return `Secret ${this.#o.systemNamespace}/${controllerKeySecret}`;
  }

  async get(signal?: AbortSignal): Promise<ControllerKey> {
    const cached = await this.#o.secrets.read(this.#o.systemNamespace, controllerKeySecret);
    if (cached !== null) return this.#parse(cached[controllerKeyField]);
    if (this.#direct) return this.#direct;
    this.#creating ??= this.#createOrRead(signal).finally(() => {
      this.#creating = undefined;
    });
    return this.#creating;
  }

  #parse(text: string | undefined): ControllerKey {
    if (text !== undefined && this.#parsed?.text === text) return this.#parsed.key;
    const bytes = Buffer.from(text ?? "", "base64");
    if (bytes.length < keyBytes) {
      throw new ControllerKeyError(
        `${this.where} has no usable "${controllerKeyField}" (${keyBytes} or more random bytes, base64): delete the Secret and crossrole creates a new key`,
      );
    }
    this.#parsed = { text: text ?? "", key: controllerKeyFrom(bytes) };
    return this.#parsed.key;
  }

  async #createOrRead(signal?: AbortSignal): Promise<ControllerKey> {
    const ns = this.#o.systemNamespace;
    const value = Buffer.from((this.#o.random ?? randomBytes)(keyBytes)).toString("base64");
    try {
      await this.#o.kube.request({
        method: "POST",
        path: collectionPath(secretType, ns),
        body: {
          apiVersion: "v1",
          kind: "Secret",
          metadata: {
            name: controllerKeySecret,
            namespace: ns,
            labels: { "app.kubernetes.io/name": "crossrole", "app.kubernetes.io/component": "controller" },
          },
          type: "Opaque",
          data: { [controllerKeyField]: Buffer.from(value).toString("base64") },
        },
        ...(signal ? { signal } : {}),
      });
      this.#direct = this.#parse(value);
      this.#o.logger?.info(
        { event: "controller.key-created", secret: `${ns}/${controllerKeySecret}` },
        "created the controller's key (it seals create intents and secret fingerprints in status)",
      );
      return this.#direct;
    } catch (err) {
      if (!isAlreadyExists(err)) {
        throw new ControllerKeyError(
          `cannot create ${this.where}, the key crossrole signs its records with: ${err instanceof Error ? err.message : String(err)}; grant the controller create on secrets in ${ns} (crossrole rbac) and make sure the namespace exists`,
          { cause: err },
        );
      }
    }
    // Another replica made it first: read theirs (the informer may not show it yet).
    const theirs = await kubeSecretReader(this.#o.kube).read(ns, controllerKeySecret);
    this.#direct = this.#parse(theirs?.[controllerKeyField]);
    return this.#direct;
  }
}
