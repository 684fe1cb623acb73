// `crossrole takeover --from-ack` reads each candidate's AWS object as the controller would:
// the same credential chain for the same decision (src/credentials), the kind's own read and
// tags. Read-only: nothing is written in AWS here; the controller adds its tags when it takes an
// object over.
import pino from "pino";
import { Registry } from "prom-client";
import { kubeSecretReader } from "../credentials/secret-reader.ts";
import { createCredentialService } from "../credentials/service.ts";
import { kubeTokenRequester } from "../credentials/token-requester.ts";
import type { Settings } from "../resolver/types.ts";
import type { KubeClient } from "../runtime/kube-client.ts";
import { noCallContext } from "../services/call-context.ts";
import type { AnyServiceModule } from "../services/catalog.ts";
import { type Candidate, candidateKey, type Seen } from "../takeover/proof.ts";

export interface AwsCandidate {
  readonly candidate: Candidate;
  readonly module: AnyServiceModule;
  /** The parsed spec (the kind's own type). */
  readonly spec: object;
}

/** What AWS has for each candidate with a decided account, by candidateKey. */
export async function readCandidates(
  kube: KubeClient,
  settings: Settings,
  items: readonly AwsCandidate[],
): Promise<Map<string, Seen>> {
  const credentials = createCredentialService({
    logger: pino({ level: "silent" }),
    registry: new Registry(),
    systemNamespace: settings.systemNamespace,
    defaultRegion: settings.defaultRegion,
    secrets: kubeSecretReader(kube),
    tokens: kubeTokenRequester(kube),
  });
  const seen = new Map<string, Seen>();
  try {
    for (const { candidate: c, module, spec } of items) {
      if (c.decision.outcome !== "use" || c.decision.account === null) continue;
      try {
        const client = await module.client(credentials, c.decision, {
          kind: c.kind,
          namespace: c.namespace,
          name: c.name,
        });
        const o = await module.read(client, spec, noCallContext);
        seen.set(
          candidateKey(c),
          o.found
            ? {
                found: true,
                tags: module.tagsOf(o.observed),
                ...regionOf(module.observedRegion(o.observed)),
              }
            : { found: false, ...(o.heldElsewhere ? { heldElsewhere: o.heldElsewhere } : {}) },
        );
      } catch (err) {
        seen.set(candidateKey(c), { error: err instanceof Error ? err.message : String(err) });
      }
    }
  } finally {
    credentials.close();
  }
  return seen;
}

const regionOf = (region: string | undefined) => (region === undefined ? {} : { region });
