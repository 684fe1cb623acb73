// Turns a resolver Decision (plus the resource, for tenant tags, and a static identity's
// Secret data) into a plan: per hop, what to call and the cache key of its credentials.
// Pure: the caller reads the Secret; nothing here does I/O or reads the clock.
import type { ChainHop, Decision } from "../resolver/types.ts";
import { canonicalJson } from "../toolkit/canonical-json.ts";
import { secretDataHash, sha256Hex } from "./chain-key.ts";
import { type HopContext, InvalidParameterError } from "./errors.ts";
import { defaultAudiences, defaultTokenExpirationSeconds } from "./providers/service-account.ts";
import type { SecretData } from "./secret-reader.ts";
import type { AssumeRoleRequest, SessionTag, WebIdentityRequest } from "./sts.ts";
import type { TokenRequest } from "./token-requester.ts";
import type { ResourceRef, StsTarget } from "./types.ts";

/** The session tags tenantSessionTags adds (always transitive, so later hops keep them). */
export const tenantTagKeys = ["kubernetes-namespace", "kubernetes-kind", "kubernetes-name"] as const;

interface HopBase {
  readonly index: number;
  readonly hop: ChainHop;
  /** `Kind/name` or `Kind/namespace/name`. */
  readonly label: string;
  /** Cache key of this hop's credentials (covers every earlier hop). */
  readonly key: string;
  readonly context: HopContext & { readonly endpoint: string };
}

export type PlannedHop =
  | (HopBase & { readonly type: "controller" })
  | (HopBase & {
      readonly type: "static";
      /** The Secret and the data read for this plan (the data its key was computed from). */
      readonly secret: { readonly namespace: string; readonly name: string; readonly data: SecretData };
    })
  | (HopBase & {
      readonly type: "web-identity";
      readonly token: TokenRequest;
      readonly request: Omit<WebIdentityRequest, "token">;
    })
  | (HopBase & {
      readonly type: "role";
      readonly request: AssumeRoleRequest;
      readonly sourceIsRole: boolean;
    });

export interface ChainPlan {
  readonly target: StsTarget;
  readonly hops: readonly PlannedHop[];
  /** Key of the last hop: the key of the chain's credentials. */
  readonly key: string;
  /** Labels of all hops, first to last, for logs. */
  readonly labels: readonly string[];
}

export interface PlanInput {
  readonly decision: Decision;
  /** The resource the credentials are for; required when a hop sets tenantSessionTags. */
  readonly resource?: ResourceRef | undefined;
  /** Where static-identity Secrets live. */
  readonly systemNamespace: string;
  /** Region when the decision carries none. */
  readonly defaultRegion?: string | null | undefined;
  /** Data of the first hop's Secret, when it is a static identity. */
  readonly secretData?: SecretData | undefined;
}

const baseKinds = new Set<ChainHop["kind"]>([
  "AWSControllerIdentity",
  "AWSStaticIdentity",
  "AWSServiceAccountIdentity",
]);
const roleKinds = new Set<ChainHop["kind"]>(["AWSRoleIdentity", "IAMRoleSelector", "CARM"]);

export function hopLabel(hop: ChainHop): string {
  return hop.namespace ? `${hop.kind}/${hop.namespace}/${hop.name}` : `${hop.kind}/${hop.name}`;
}

/** The STS endpoint calls go to, as a person would recognise it. */
export function stsEndpointOf(target: StsTarget): string {
  return target.endpoint ?? `https://sts.${target.region}.amazonaws.com`;
}

const sessionNameForbidden = /[^A-Za-z0-9_+=,.@-]/g;

/**
 * The default RoleSessionName: `crossrole-<identity name>`, made valid for STS
 * (`[\w+=,.@-]{2,64}`), so CloudTrail shows who assumed the role and through which identity.
 */
export function defaultSessionName(hop: ChainHop): string {
  return `crossrole-${hop.name}`.replace(sessionNameForbidden, "-").slice(0, 64);
}

/** What both sts:AssumeRole and sts:AssumeRoleWithWebIdentity are asked: role, session name, duration. */
function sessionRequest(
  hop: ChainHop,
  roleARN: string,
): Pick<AssumeRoleRequest, "roleARN" | "sessionName" | "durationSeconds"> {
  const p = hop.parameters;
  return {
    roleARN,
    sessionName: p.sessionName ?? defaultSessionName(hop),
    ...(p.durationSeconds !== undefined ? { durationSeconds: p.durationSeconds } : {}),
  };
}

function invalid(context: HopContext, summary: string, fix: string): InvalidParameterError {
  return new InvalidParameterError({ context, summary, fix });
}

function sessionTagsFor(hop: ChainHop, resource: ResourceRef | undefined, context: HopContext) {
  const p = hop.parameters;
  const tags: SessionTag[] = (p.sessionTags ?? []).map((t) => ({ key: t.key, value: t.value }));
  const transitive = [...(p.transitiveTagKeys ?? [])];
  if (p.tenantSessionTags) {
    if (resource === undefined) {
      throw invalid(
        context,
        "tenantSessionTags is set but the request names no resource to tag the session with",
        "pass the resource (namespace, kind, name) when asking for credentials of this chain",
      );
    }
    tags.push(
      { key: "kubernetes-namespace", value: resource.namespace },
      { key: "kubernetes-kind", value: resource.kind },
      { key: "kubernetes-name", value: resource.name },
    );
    for (const k of tenantTagKeys) if (!transitive.includes(k)) transitive.push(k);
  }
  return { tags, transitive };
}

/**
 * A cheap exact fingerprint of everything planChain reads from a request (not canonical:
 * equal content written in another key order gives another fingerprint, never a wrong plan).
 * Lets a caller reuse a plan without hashing on every request; the plan's keys stay canonical.
 */
export function planFingerprint(
  decision: Decision,
  resource: ResourceRef | undefined,
  secretData: SecretData | undefined,
): string {
  const tenant =
    resource !== undefined && decision.chain.some((h) => h.parameters.tenantSessionTags === true);
  return JSON.stringify([
    decision.outcome,
    decision.drift,
    decision.region,
    decision.endpoint,
    decision.chain,
    tenant ? [resource.namespace, resource.kind, resource.name] : null,
    secretData === undefined ? null : secretDataHash(secretData),
  ]);
}

export function planChain(input: PlanInput): ChainPlan {
  const { decision, resource } = input;
  const chain = decision.chain;
  const region = decision.region ?? input.defaultRegion ?? null;
  const labels = chain.map(hopLabel);
  const endpointText = stsEndpointOf({ region: region ?? "unknown", endpoint: decision.endpoint });
  const contextOf = (i: number): HopContext & { endpoint: string } => {
    const hop = chain[i];
    return {
      identity: hop ? labels[i]! : "Decision",
      hop: i + 1,
      hops: chain.length,
      ...(hop?.roleARN ? { roleARN: hop.roleARN } : {}),
      endpoint: endpointText,
    };
  };
  if (decision.outcome !== "use" || decision.drift !== null) {
    throw invalid(
      contextOf(chain.length - 1),
      `the decision is "${decision.outcome}"${decision.drift ? ` with ${decision.drift.kind} drift` : ""}, so no credentials may be made (${decision.message})`,
      "resolve what the decision's message names; only a usable decision gets credentials",
    );
  }
  if (chain.length === 0) {
    throw invalid(
      contextOf(0),
      "the decision has an empty identity chain",
      "this is a resolver bug; report it",
    );
  }
  if (region === null) {
    throw invalid(
      contextOf(0),
      "no AWS region is known for this resource",
      "set the services.k8s.aws/region annotation, the namespace's services.k8s.aws/default-region, or --aws-region",
    );
  }
  const target: StsTarget = { region, endpoint: decision.endpoint };
  const hops: PlannedHop[] = [];
  let sourceKey: string | null = null;
  for (let i = 0; i < chain.length; i++) {
    const hop = chain[i]!;
    const context = contextOf(i);
    const first = i === 0;
    if (first !== baseKinds.has(hop.kind) || (!first && !roleKinds.has(hop.kind))) {
      throw invalid(
        context,
        first
          ? `a chain must start with the controller, a static or a service-account identity, not ${hop.kind}`
          : `${hop.kind} cannot follow another identity in a chain`,
        "this is a resolver bug; report it with the decision's trace",
      );
    }
    const tenant = hop.parameters.tenantSessionTags ? resource : undefined;
    // Everything that shapes this hop's credentials. The parameters go in whole (not field by
    // field) so a parameter added later can never be left out of the key; resourceVersion
    // stays out, since a no-op update must not cost an STS call.
    const material: Record<string, unknown> = {
      v: 1,
      source: sourceKey,
      region: target.region,
      endpoint: target.endpoint,
      kind: hop.kind,
      name: hop.name,
      namespace: hop.namespace ?? null,
      roleARN: hop.roleARN ?? null,
      parameters: hop.parameters,
      tenant: tenant ? { namespace: tenant.namespace, kind: tenant.kind, name: tenant.name } : null,
    };
    // The key is filled in below, once the material is complete.
    const base: HopBase = { index: i, hop, label: labels[i]!, key: "", context };
    let planned: PlannedHop;
    if (hop.kind === "AWSControllerIdentity") {
      planned = { type: "controller", ...base };
    } else if (hop.kind === "AWSStaticIdentity") {
      const name = hop.parameters.secretRef;
      if (!name) throw invalid(context, "the static identity names no Secret", "set spec.secretRef");
      if (input.secretData === undefined) {
        throw invalid(
          context,
          `the data of Secret ${name} was not read`,
          "this is a crossrole bug; report it",
        );
      }
      material["secretDataHash"] = secretDataHash(input.secretData);
      planned = {
        type: "static",
        ...base,
        secret: { namespace: input.systemNamespace, name, data: input.secretData },
      };
    } else if (hop.kind === "AWSServiceAccountIdentity") {
      const p = hop.parameters;
      if (!hop.roleARN || !p.serviceAccountName || !hop.namespace) {
        throw invalid(
          context,
          "the service-account identity lacks roleARN, serviceAccountName or its namespace",
          "set spec.roleARN and spec.serviceAccountName",
        );
      }
      planned = {
        type: "web-identity",
        ...base,
        token: {
          namespace: hop.namespace,
          serviceAccountName: p.serviceAccountName,
          audiences: p.audiences?.length ? p.audiences : defaultAudiences,
          expirationSeconds: p.expirationSeconds ?? defaultTokenExpirationSeconds,
        },
        request: sessionRequest(hop, hop.roleARN),
      };
    } else {
      const p = hop.parameters;
      if (!hop.roleARN) throw invalid(context, `${hop.kind} carries no role ARN`, "set the role ARN on it");
      const { tags, transitive } = sessionTagsFor(hop, resource, context);
      const previous = hops[i - 1]!;
      planned = {
        type: "role",
        ...base,
        sourceIsRole: previous.type === "role" || previous.type === "web-identity",
        request: {
          ...sessionRequest(hop, hop.roleARN),
          ...(p.externalID !== undefined ? { externalID: p.externalID } : {}),
          ...(p.inlinePolicy !== undefined ? { policy: p.inlinePolicy } : {}),
          ...(p.policyARNs?.length ? { policyARNs: p.policyARNs } : {}),
          ...(tags.length ? { tags } : {}),
          ...(transitive.length ? { transitiveTagKeys: transitive } : {}),
          ...(p.sourceIdentity !== undefined ? { sourceIdentity: p.sourceIdentity } : {}),
        },
      };
    }
    const key = sha256Hex(canonicalJson(material));
    hops.push({ ...planned, key });
    sourceKey = key;
  }
  return { target, hops, key: sourceKey!, labels };
}
