// The credentials service: the one object the controller holds. Given a usable Decision (and
// the resource, for tenant tags) it returns credentials, or SDK clients that use them. Each hop
// of the chain is its own cache entry with its own provider, so every hop refreshes on its own
// schedule and an outer role re-reads its source through the cache on each refresh.
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Decision } from "../resolver/types.ts";
import type { Random } from "../toolkit/backoff.ts";
import { type Clock, type Sleep, systemClock, systemSleep } from "../toolkit/clock.ts";
import { type RateLimit, TokenBucket } from "../toolkit/token-bucket.ts";
import { logIssuedCredentials } from "./audit.ts";
import { awsCallObserver, createAwsCallMetrics } from "./aws-call-observer.ts";
import { AwsRateLimiter, type AwsRateLimits } from "./aws-rate-limit.ts";
import { CredentialCache, type CredentialCacheOptions } from "./cache.ts";
import { classifyStsError } from "./classify-error.ts";
import { AwsClientPool, type ClientFactory, type Destroyable } from "./client-pool.ts";
import { InvalidParameterError } from "./errors.ts";
import { createCredentialMetrics } from "./metrics.ts";
import { type ChainPlan, type PlannedHop, planChain, planFingerprint } from "./plan.ts";
import { defaultStsRateLimit, protectSts, type StsRetryPolicy } from "./protected-sts.ts";
import { controllerCredentials } from "./providers/controller.ts";
import { roleCredentials } from "./providers/role.ts";
import { serviceAccountCredentials } from "./providers/service-account.ts";
import { readStaticSecret, staticCredentials } from "./providers/static.ts";
import type { SecretData, SecretReader } from "./secret-reader.ts";
import { accountOfArn, type CallerIdentity, type StsApi, type StsSession, sdkSts } from "./sts.ts";
import type { TokenRequester } from "./token-requester.ts";
import type { CredentialProvider, Credentials, ResourceRef, StsTarget } from "./types.ts";

export interface CredentialServiceOptions {
  /** Audit lines go here (one per new credentials). */
  readonly logger: Logger;
  /** Metrics register here; never prom-client's global registry. */
  readonly registry: Registry;
  /** Where static-identity Secrets live. */
  readonly systemNamespace: string;
  /** Region for decisions that carry none (`--aws-region`). */
  readonly defaultRegion?: string | null;
  /** Needed when a chain starts with an AWSStaticIdentity. */
  readonly secrets?: SecretReader;
  /** Needed when a chain starts with an AWSServiceAccountIdentity. */
  readonly tokens?: TokenRequester;
  /** Replaces the SDK default chain for AWSControllerIdentity (per STS target). */
  readonly controllerChain?: (target: StsTarget) => CredentialProvider;
  /**
   * SDK client pool (shared with the rest of the controller). By default one whose clients count
   * every call under ACK's metric names and log each write (aws-call-observer.ts).
   */
  readonly clients?: AwsClientPool;
  /** STS behind crossrole's narrow interface; default: the SDK through `clients`. */
  readonly sts?: StsApi;
  /** Process-wide STS token bucket (`--sts-qps`, `--sts-burst`). */
  readonly stsRateLimit?: RateLimit;
  /**
   * Per service, region and account, for the other services' calls (`--aws-api-qps`,
   * `--aws-api-burst`, `--aws-api-rate-limit`; aws-rate-limit.ts). Used by the default pool.
   */
  readonly awsRateLimits?: AwsRateLimits;
  readonly stsRetry?: StsRetryPolicy;
  readonly cache?: Omit<CredentialCacheOptions, "clock" | "random" | "metrics">;
  readonly clock?: Clock;
  readonly sleep?: Sleep;
  readonly random?: Random;
  /** The operations ACK's metrics count as READ_MANY (the served kinds' `ack.readMany`). */
  readonly ackReadMany?: ReadonlySet<string>;
  /** How long an AWS request may wait for its answer, per attempt (--http-client-timeout). */
  readonly awsRequestTimeoutMs?: number;
}

/** A provider the AWS SDK uses as is: crossrole's cache already memoizes, so the SDK must not. */
export type SdkCredentialProvider = CredentialProvider & { readonly memoized: true };

export interface CredentialService {
  /** Credentials for the decision's chain, from the cache when possible. */
  credentialsFor(decision: Decision, resource?: ResourceRef): Promise<Credentials>;
  /** The plan (hops, keys) for a decision; reads a static identity's Secret. */
  plan(decision: Decision, resource?: ResourceRef): Promise<ChainPlan>;
  /** A provider for a plan's credentials, bound to its key (for SDK clients). */
  providerFor(plan: ChainPlan): SdkCredentialProvider;
  /**
   * A reused SDK client of `factory`'s class acting with the decision's chain, in its region and
   * endpoint (each service module brings its factory). Ask per reconcile: it is cheap.
   */
  client<C extends Destroyable>(
    factory: ClientFactory<C>,
    decision: Decision,
    resource?: ResourceRef,
  ): Promise<C>;
  /** sts:GetCallerIdentity with the chain's credentials (remembered per key). */
  callerIdentity(decision: Decision, resource?: ResourceRef): Promise<CallerIdentity>;
  /** The cache (for inspection and idle purging). */
  readonly cache: CredentialCache;
  /** STS as crossrole calls it: rate-limited, retried, counted. */
  readonly sts: StsApi;
  /** Drops cached credentials and destroys the SDK clients this service created. */
  close(): void;
}

/** The pool whose every call is counted and rate-limited, both by the same account label. */
function observedClientPool(opts: CredentialServiceOptions, clock: Clock, sleep: Sleep): AwsClientPool {
  const calls = createAwsCallMetrics(opts.registry);
  return new AwsClientPool({
    ...(opts.awsRequestTimeoutMs === undefined ? {} : { requestTimeoutMs: opts.awsRequestTimeoutMs }),
    observe: awsCallObserver(calls, opts.logger, opts.ackReadMany),
    limiter: new AwsRateLimiter({
      ...(opts.awsRateLimits ? { limits: opts.awsRateLimits } : {}),
      clock,
      sleep,
      registry: opts.registry,
      accountLabel: calls.accounts,
    }),
  });
}

export function createCredentialService(opts: CredentialServiceOptions): CredentialService {
  const clock = opts.clock ?? systemClock;
  const sleep = opts.sleep ?? systemSleep;
  const random = opts.random ?? Math.random;
  const ownsClients = opts.clients === undefined;
  const clients = opts.clients ?? observedClientPool(opts, clock, sleep);
  // The gauge reads the cache's size at scrape time, after both exist.
  const metrics = createCredentialMetrics(opts.registry, () => entries.size);
  const entries = new CredentialCache({ ...opts.cache, clock, random, metrics });
  const sts = protectSts(opts.sts ?? sdkSts(clients), {
    bucket: new TokenBucket(opts.stsRateLimit ?? defaultStsRateLimit, clock, sleep),
    ...(opts.stsRetry ? { retry: opts.stsRetry } : {}),
    metrics,
    sleep,
    random,
  });
  const callers = new LRUCache<string, Promise<CallerIdentity>>({ max: 1_000 });
  // Plans by request fingerprint: a cache hit then costs one JSON.stringify and two map
  // lookups instead of canonical JSON and SHA-256 per hop (the bench's 10 us budget).
  const plans = new LRUCache<string, ChainPlan>({ max: opts.cache?.maxEntries ?? 10_000 });

  const audit = (
    plan: ChainPlan,
    hop: PlannedHop,
    fields: Partial<Parameters<typeof logIssuedCredentials>[1]>,
  ) =>
    logIssuedCredentials(opts.logger, {
      identity: hop.label,
      chain: plan.labels.slice(0, hop.index + 1),
      hop: hop.index + 1,
      operation: "AssumeRole",
      roleARN: hop.hop.roleARN ?? null,
      assumedRoleARN: null,
      account: null,
      sessionName: null,
      durationSeconds: null,
      expiration: undefined,
      region: plan.target.region,
      endpoint: plan.target.endpoint,
      key: hop.key,
      ...fields,
    });

  const sessionAudit =
    (plan: ChainPlan, hop: PlannedHop) =>
    (session: StsSession, request: { sessionName: string; durationSeconds?: number | undefined }) =>
      audit(plan, hop, {
        operation: hop.type === "web-identity" ? "AssumeRoleWithWebIdentity" : "AssumeRole",
        assumedRoleARN: session.assumedRoleARN,
        account: accountOfArn(session.assumedRoleARN) ?? accountOfArn(hop.hop.roleARN),
        sessionName: request.sessionName,
        durationSeconds: request.durationSeconds ?? null,
        expiration: session.credentials.expiration,
      });

  /** Base credentials are audited when obtained, like assumed ones. */
  const audited = (plan: ChainPlan, hop: PlannedHop, provider: CredentialProvider): CredentialProvider => {
    return async () => {
      const c = await provider();
      audit(plan, hop, {
        operation: hop.type === "static" ? "StaticSecret" : "ControllerChain",
        account: c.accountId ?? null,
        expiration: c.expiration,
      });
      return c;
    };
  };

  function hopProvider(plan: ChainPlan, hop: PlannedHop): CredentialProvider {
    switch (hop.type) {
      case "controller": {
        const chain = opts.controllerChain?.(plan.target);
        return audited(
          plan,
          hop,
          controllerCredentials({ target: plan.target, context: hop.context, ...(chain ? { chain } : {}) }),
        );
      }
      case "static":
        return audited(
          plan,
          hop,
          staticCredentials(hop.secret.data, { ...hop.secret, context: hop.context }),
        );
      case "web-identity": {
        if (!opts.tokens) throw missingDependency(hop, "a TokenRequester (tokens)");
        return serviceAccountCredentials({
          sts,
          tokens: opts.tokens,
          clock,
          target: plan.target,
          token: hop.token,
          request: hop.request,
          context: hop.context,
          onSession: sessionAudit(plan, hop),
        });
      }
      case "role": {
        const source = plan.hops[hop.index - 1]!;
        return roleCredentials({
          sts,
          target: plan.target,
          source: { key: source.key, provider: sdkProvider(plan, source.index) },
          sourceIsRole: hop.sourceIsRole,
          request: hop.request,
          context: hop.context,
          invalidateSource: () => entries.invalidate(source.key),
          onSession: sessionAudit(plan, hop),
        });
      }
    }
  }

  function hopCredentials(plan: ChainPlan, index: number): Promise<Credentials> {
    const hop = plan.hops[index]!;
    return entries.get(hop.key, () => hopProvider(plan, hop));
  }

  function sdkProvider(plan: ChainPlan, index: number): SdkCredentialProvider {
    return Object.assign(() => hopCredentials(plan, index), { memoized: true as const });
  }

  async function readSecret(decision: Decision): Promise<SecretData | undefined> {
    const first = decision.chain[0];
    if (first?.kind !== "AWSStaticIdentity" || !first.parameters.secretRef) return undefined;
    const context = { identity: `${first.kind}/${first.name}`, hop: 1, hops: decision.chain.length };
    if (!opts.secrets) throw missingDependency({ context }, "a SecretReader (secrets)");
    return readStaticSecret(opts.secrets, {
      namespace: opts.systemNamespace,
      name: first.parameters.secretRef,
      context,
    });
  }

  function planWith(
    decision: Decision,
    resource: ResourceRef | undefined,
    secretData: SecretData | undefined,
  ) {
    const fingerprint = planFingerprint(decision, resource, secretData);
    let p = plans.get(fingerprint);
    if (p === undefined) {
      p = planChain({
        decision,
        resource,
        systemNamespace: opts.systemNamespace,
        defaultRegion: opts.defaultRegion,
        secretData,
      });
      plans.set(fingerprint, p);
    }
    return p;
  }

  async function plan(decision: Decision, resource?: ResourceRef): Promise<ChainPlan> {
    return planWith(decision, resource, await readSecret(decision));
  }

  return {
    credentialsFor(decision, resource) {
      // The common chains need no Secret: plan synchronously, so a cache hit costs no extra await.
      if (decision.chain[0]?.kind === "AWSStaticIdentity") {
        return plan(decision, resource).then((p) => hopCredentials(p, p.hops.length - 1));
      }
      try {
        const p = planWith(decision, resource, undefined);
        return hopCredentials(p, p.hops.length - 1);
      } catch (err) {
        return Promise.reject(err);
      }
    },
    plan,
    providerFor: (p) => sdkProvider(p, p.hops.length - 1),
    async client(factory, decision, resource) {
      const p = await plan(decision, resource);
      return clients.client(factory, clientKey(p), sdkProvider(p, p.hops.length - 1));
    },
    async callerIdentity(decision, resource) {
      const p = await plan(decision, resource);
      let found = callers.get(p.key);
      if (found === undefined) {
        const last = p.hops[p.hops.length - 1]!;
        found = sts
          .getCallerIdentity({
            target: p.target,
            source: { key: p.key, provider: sdkProvider(p, last.index) },
          })
          .catch((err: unknown) => {
            callers.delete(p.key);
            throw classifyStsError(err, { ...last.context, operation: "GetCallerIdentity" });
          });
        callers.set(p.key, found);
      }
      return found;
    },
    cache: entries,
    sts,
    close() {
      entries.clear();
      callers.clear();
      plans.clear();
      if (ownsClients) clients.close();
    },
  };
}

function clientKey(plan: ChainPlan) {
  return { region: plan.target.region, endpoint: plan.target.endpoint, credentialsKey: plan.key };
}

function missingDependency(
  hop: { readonly context: { identity: string; hop: number; hops: number } },
  what: string,
): InvalidParameterError {
  return new InvalidParameterError({
    context: hop.context,
    summary: `crossrole was started without ${what}, which this identity needs`,
    fix: "this is a crossrole wiring bug; report it",
  });
}
