// A small JSON client for the Kubernetes API: raw requests by path and streaming watches.
// Where and as whom come from a RestConfig (a kubeconfig context or the in-cluster service
// account; rest-config.ts), credentials per request from kube-auth.ts; the transport is
// node:http(s) with one keep-alive agent carrying the TLS material, so the runtime can speak to
// any resource — built-in or custom — by path, and see every HTTP status (410 Gone on a watch
// matters to informers).
import type { Agent as HttpAgent, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { timeStep } from "../toolkit/step-times.ts";
import { checkFence } from "./fence.ts";
import { type Authenticator, type AuthenticatorOptions, createAuthenticator } from "./kube-auth.ts";
import type { KubeObject } from "./kube-object.ts";
import { nodeHttp } from "./node-http.ts";
import type { RestConfig } from "./rest-config.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type QueryValue = string | number | boolean | undefined;

/** Content types for PATCH. */
export const patchTypes = {
  merge: "application/merge-patch+json",
  json: "application/json-patch+json",
  strategicMerge: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
} as const;

export interface KubeRequest {
  readonly method: HttpMethod;
  /** Absolute API path, e.g. "/api/v1/namespaces/a/configmaps/b". */
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** JSON body (serialised here). */
  readonly body?: unknown;
  /** Defaults to application/json; one of `patchTypes` for PATCH. */
  readonly contentType?: string;
  /** Defaults to application/json; e.g. the server-side Table form kubectl get prints. */
  readonly accept?: string;
  readonly signal?: AbortSignal;
  /** Per-request deadline; defaults to the client's `requestTimeoutMs`. */
  readonly timeoutMs?: number;
}

export interface WatchEvent {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
  readonly type: string;
  /** The object, or for ERROR a metav1.Status. */
  readonly object: KubeObject & { code?: number; reason?: string; message?: string };
}

export interface WatchRequest {
  /** Collection path; `watch=true` is added. */
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** Ends the watch; the returned promise then resolves. */
  readonly signal: AbortSignal;
  readonly onEvent: (event: WatchEvent) => void;
  /** Client-side deadline for the whole stream (normally longer than the server's timeoutSeconds). */
  readonly timeoutMs?: number;
  /** Called once the server has accepted the watch (HTTP 200), before any event. */
  readonly onOpen?: () => void;
}

export interface KubeClient {
  /** Sends one request; resolves with the parsed JSON body, rejects with KubeApiError on HTTP ≥ 400. */
  request<T = unknown>(req: KubeRequest): Promise<T>;
  /**
   * Streams a watch. Resolves when the server ends the stream, the deadline passes or `signal`
   * aborts; rejects with KubeApiError when the server refuses the watch (e.g. 410), or with the
   * transport error when the connection breaks mid-stream.
   */
  watch(req: WatchRequest): Promise<void>;
}

/** The request an apiserver error answered, so that messages can name the Kubernetes call. */
export interface KubeCall {
  readonly method: string;
  readonly path: string;
  /** A PATCH's top-level fields (spec, status, metadata): the part of the object it wrote. */
  readonly fields?: readonly string[];
}

/** An HTTP error from the apiserver, with the metav1.Status it sent when it sent one. */
export class KubeApiError extends Error {
  readonly status: number;
  /** metav1.Status `reason` (NotFound, Conflict, AlreadyExists, Expired, Gone, ...), or "". */
  readonly reason: string;
  readonly body: unknown;
  /** The Retry-After header's seconds (429/503), when sent. */
  readonly retryAfterSeconds: number | undefined;
  /** The call that failed, when the client made it (a watch's ERROR event has none). */
  readonly call: KubeCall | undefined;
  constructor(
    status: number,
    reason: string,
    message: string,
    body: unknown,
    retryAfterSeconds?: number,
    call?: KubeCall,
  ) {
    super(message);
    this.name = "KubeApiError";
    this.status = status;
    this.reason = reason;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
    this.call = call;
  }
}

function statusOf(err: unknown): number | undefined {
  return err instanceof KubeApiError ? err.status : undefined;
}
export const isNotFound = (err: unknown): boolean => statusOf(err) === 404;

/** GETs one object; undefined when the apiserver has none at `path` (any other failure throws). */
export async function getIfExists<T>(
  client: KubeClient,
  path: string,
  signal?: AbortSignal,
): Promise<T | undefined> {
  try {
    return await client.request<T>({ method: "GET", path, ...(signal ? { signal } : {}) });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
export const isConflict = (err: unknown): boolean => statusOf(err) === 409 && !isAlreadyExists(err);
export const isAlreadyExists = (err: unknown): boolean =>
  err instanceof KubeApiError && err.status === 409 && err.reason === "AlreadyExists";
/** 410 Gone / Expired: the resourceVersion is too old (compacted); the informer must relist. */
export const isGone = (err: unknown): boolean => statusOf(err) === 410;

export interface ResponseInfo {
  readonly method: HttpMethod;
  readonly path: string;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly durationMs: number;
  readonly watch: boolean;
}

export interface KubeClientOptions {
  readonly userAgent?: string;
  /** Token-file refresh period, exec plugin runner, clock (tests). */
  readonly auth?: AuthenticatorOptions;
  /** Default deadline for non-watch requests (30 s). */
  readonly requestTimeoutMs?: number;
  /** Called after every request (for the REST client metrics and request counting). */
  readonly onResponse?: (info: ResponseInfo) => void;
}

/**
 * An AbortSignal that fires after `ms`, with a clear() to call when done. Unlike
 * AbortSignal.timeout, its timer (and the signal) are released as soon as the request ends.
 */
function deadline(ms: number): { readonly signal: AbortSignal; clear(): void } {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new Error(`deadline of ${ms} ms passed`)), ms);
  timer.unref();
  return { signal: ctl.signal, clear: () => clearTimeout(timer) };
}

/** `server`: the base URL without a trailing slash. */
function buildUrl(server: string, path: string, query?: Readonly<Record<string, QueryValue>>): URL {
  const url = new URL(server + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined) url.searchParams.set(k, String(v));
  }
  return url;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function apiError(
  status: number,
  body: unknown,
  call: KubeCall,
  res: IncomingMessage,
  config: RestConfig,
): KubeApiError {
  const { method, path } = call;
  const s = (typeof body === "object" && body !== null ? body : {}) as {
    reason?: unknown;
    message?: unknown;
  };
  const reason = typeof s.reason === "string" ? s.reason : "";
  const detail =
    typeof s.message === "string" ? s.message : typeof body === "string" ? body.slice(0, 500) : "";
  // A 401 is about the credentials, not the request: say whose, and what to do.
  const hint =
    status === 401
      ? ` (the apiserver ${config.server} refused the credentials of ${config.source}: renew the token or certificate, or pick another context with --context)`
      : "";
  const retryAfter = Number(res.headers["retry-after"] ?? Number.NaN);
  return new KubeApiError(
    status,
    reason,
    `${method} ${path}: ${status}${reason ? ` ${reason}` : ""}: ${detail}${hint}`,
    body,
    Number.isFinite(retryAfter) ? retryAfter : undefined,
    call,
  );
}

/** The call a request makes; a PATCH names the top-level fields it writes. */
function callOf(r: KubeRequest): KubeCall {
  const body = r.body;
  const fields =
    r.method === "PATCH" && typeof body === "object" && body !== null && !Array.isArray(body)
      ? Object.keys(body)
      : undefined;
  return { method: r.method, path: r.path, ...(fields === undefined ? {} : { fields }) };
}

class ConfigKubeClient implements KubeClient {
  readonly #config: RestConfig;
  /** config.server without a trailing slash: what every request's path is appended to. */
  readonly #server: string;
  readonly #opts: KubeClientOptions;
  readonly #auth: Authenticator;
  readonly #isHttps: boolean;
  // One keep-alive agent for the one server, holding its TLS material (Node pools sockets by it).
  readonly #agent: HttpAgent;

  constructor(config: RestConfig, opts: KubeClientOptions) {
    this.#config = config;
    this.#server = config.server.replace(/\/+$/, "");
    this.#opts = opts;
    this.#auth = createAuthenticator(config, opts.auth);
    this.#isHttps = new URL(config.server).protocol === "https:";
    const tls = config.tls;
    this.#agent = this.#isHttps
      ? new HttpsAgent({
          keepAlive: true,
          ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
          ...(tls.cert !== undefined ? { cert: tls.cert, key: tls.key } : {}),
          ...(tls.serverName !== undefined ? { servername: tls.serverName } : {}),
          rejectUnauthorized: tls.insecureSkipTLSVerify !== true,
        })
      : new nodeHttp.Agent({ keepAlive: true });
  }

  async #open(
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const creds = await this.#auth.credentials();
    const reqOpts: RequestOptions = {
      method,
      agent: this.#agent,
      // An exec plugin's client certificate (the agent keys its pool by it).
      ...(creds.cert !== undefined ? { cert: creds.cert, key: creds.key } : {}),
      headers: {
        ...(creds.headers as OutgoingHttpHeaders),
        accept: "application/json",
        "user-agent": this.#opts.userAgent ?? "crossrole",
        ...headers,
      },
    };
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const req = (this.#isHttps ? httpsRequest : nodeHttp.request)(url, reqOpts, (res) => {
        // From here on the caller reads (or abandons) the response; an abort tears it down.
        res.on("error", () => {});
        if (res.statusCode === 401) this.#auth.unauthorized();
        resolve(res);
      });
      // destroy() without an error: with a keep-alive agent the socket may already be back in
      // the pool, where an error event would have no listener.
      const onAbort = () => {
        reject(signal.reason);
        req.destroy();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      req.on("close", () => signal.removeEventListener("abort", onAbort));
      req.on("error", reject);
      req.end(body);
    });
  }

  request<T = unknown>(r: KubeRequest): Promise<T> {
    // A write made for a reconcile whose replica was fenced meanwhile is never sent (fence.ts).
    if (r.method !== "GET") {
      try {
        checkFence();
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return timeStep(r.method === "GET" ? "kubernetes_read" : "kubernetes_write", () => this.#request<T>(r));
  }

  async #request<T>(r: KubeRequest): Promise<T> {
    const url = buildUrl(this.#server, r.path, r.query);
    const started = performance.now();
    const timeoutMs = r.timeoutMs ?? this.#opts.requestTimeoutMs ?? 30_000;
    const timeout = deadline(timeoutMs);
    const signal = r.signal ? AbortSignal.any([r.signal, timeout.signal]) : timeout.signal;
    const body = r.body === undefined ? undefined : JSON.stringify(r.body);
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = r.contentType ?? "application/json";
    if (r.accept !== undefined) headers["accept"] = r.accept;
    let status = 0;
    try {
      const res = await this.#open(r.method, url, headers, body, signal);
      status = res.statusCode ?? 0;
      let text = "";
      res.setEncoding("utf8");
      for await (const chunk of res) text += chunk as string;
      const parsed = parseBody(text);
      if (status >= 400) throw apiError(status, parsed, callOf(r), res, this.#config);
      return parsed as T;
    } catch (err) {
      if (timeout.signal.aborted && !(err instanceof KubeApiError)) {
        throw new Error(`${r.method} ${r.path}: no response within ${timeoutMs} ms`);
      }
      throw err;
    } finally {
      timeout.clear();
      this.#opts.onResponse?.({
        method: r.method,
        path: r.path,
        status,
        durationMs: performance.now() - started,
        watch: false,
      });
    }
  }

  async watch(w: WatchRequest): Promise<void> {
    if (w.signal.aborted) return;
    const url = buildUrl(this.#server, w.path, { ...w.query, watch: "true" });
    // `stop` tears the stream down after a bad event; only the caller's signal and the deadline
    // end a watch normally.
    const stop = new AbortController();
    const limit = w.timeoutMs === undefined ? undefined : deadline(w.timeoutMs);
    const endedNormally = () => w.signal.aborted || limit?.signal.aborted === true;
    const signal = AbortSignal.any(limit ? [w.signal, stop.signal, limit.signal] : [w.signal, stop.signal]);
    const started = performance.now();
    let status = 0;
    try {
      const res = await this.#open("GET", url, {}, undefined, signal);
      status = res.statusCode ?? 0;
      if (status !== 200) {
        let text = "";
        res.setEncoding("utf8");
        for await (const chunk of res) text += chunk as string;
        throw apiError(status, parseBody(text), { method: "WATCH", path: w.path }, res, this.#config);
      }
      w.onOpen?.();
      await new Promise<void>((resolve, reject) => {
        let buffer = "";
        let settled = false;
        const settle = (err?: unknown) => {
          if (settled) return;
          settled = true;
          if (err === undefined || endedNormally()) resolve();
          else reject(err);
        };
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let nl = buffer.indexOf("\n");
          while (nl >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            nl = buffer.indexOf("\n");
            if (line === "") continue;
            let event: WatchEvent;
            try {
              event = JSON.parse(line) as WatchEvent;
            } catch {
              stop.abort();
              settle(new Error(`WATCH ${w.path}: undecodable event: ${line.slice(0, 200)}`));
              return;
            }
            try {
              w.onEvent(event);
            } catch (err) {
              stop.abort();
              settle(err);
              return;
            }
          }
        });
        res.on("end", () => settle());
        res.on("error", (err) => settle(err));
        res.on("close", () => {
          if (!res.complete) settle(new Error(`WATCH ${w.path}: connection closed mid-stream`));
          else settle();
        });
      });
    } catch (err) {
      if (endedNormally()) return;
      throw err;
    } finally {
      limit?.clear();
      this.#opts.onResponse?.({
        method: "GET",
        path: w.path,
        status,
        durationMs: performance.now() - started,
        watch: true,
      });
    }
  }
}

/** A KubeClient that reaches `config.server` as `config`'s credentials. */
export function createKubeClient(config: RestConfig, opts: KubeClientOptions = {}): KubeClient {
  return new ConfigKubeClient(config, opts);
}
