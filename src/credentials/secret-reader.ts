// How a static identity's keys are read: a narrow interface (the controller backs it with its
// Secret informer; tests and tools with a direct API read), and a Kubernetes implementation.
import { ApiException, CoreV1Api, type KubeConfig } from "@kubernetes/client-node";

/** A Secret's data, decoded to UTF-8 strings. */
export type SecretData = Readonly<Record<string, string>>;

export interface SecretReader {
  /** The Secret's data, or null when the Secret does not exist. */
  read(namespace: string, name: string): Promise<SecretData | null>;
}

/** Reads Secrets straight from the API server (one GET per call; prefer an informer in the controller). */
export function kubeSecretReader(kubeConfig: KubeConfig): SecretReader {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async read(namespace, name) {
      try {
        const secret = await core.readNamespacedSecret({ name, namespace });
        const data: Record<string, string> = {};
        for (const [k, v] of Object.entries(secret.data ?? {}))
          data[k] = Buffer.from(v, "base64").toString("utf8");
        for (const [k, v] of Object.entries(secret.stringData ?? {})) data[k] = v;
        return data;
      } catch (err) {
        if (err instanceof ApiException && err.code === 404) return null;
        throw err;
      }
    },
  };
}
