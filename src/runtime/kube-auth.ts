// A RestConfig's credentials as what each request carries: the Authorization header (a static
// token, a token file re-read every minute as client-go does, basic auth, or an exec plugin's
// token cached until it expires), impersonation headers, and an exec plugin's client
// certificate. A 401 drops what can be fetched again, so the next request uses fresh credentials.
import { readFile } from "node:fs/promises";
import { type Clock, systemClock } from "../toolkit/clock.ts";
import { type ExecCredential, runExecPlugin } from "./exec-credential.ts";
import { type RestConfig, readFailure } from "./rest-config.ts";

export type AuthHeaders = Readonly<Record<string, string | readonly string[]>>;

export interface RequestCredentials {
  readonly headers: AuthHeaders;
  /** An exec plugin's client certificate and key (PEM), to send on this request. */
  readonly cert?: string;
  readonly key?: string;
}

export interface Authenticator {
  credentials(): Promise<RequestCredentials>;
  /** The apiserver answered 401: re-read the token file / re-run the plugin before the next request. */
  unauthorized(): void;
}

export interface AuthenticatorOptions {
  readonly clock?: Clock;
  /** How long a token file's content is used before it is read again (60 s). */
  readonly tokenFileRefreshMs?: number;
  readonly readTextFile?: (path: string) => Promise<string>;
  readonly runExec?: typeof runExecPlugin;
}

function impersonationHeaders(config: RestConfig): Record<string, string | readonly string[]> {
  const imp = config.impersonate;
  if (!imp) return {};
  const h: Record<string, string | readonly string[]> = {};
  if (imp.user) h["impersonate-user"] = imp.user;
  if (imp.uid) h["impersonate-uid"] = imp.uid;
  if (imp.groups.length > 0) h["impersonate-group"] = imp.groups;
  for (const [k, v] of Object.entries(imp.extra)) h[`impersonate-extra-${encodeURIComponent(k)}`] = v;
  return h;
}

/** A value fetched at most once at a time, kept until `stale` says otherwise. */
class Refreshing<T> {
  #value: { readonly v: T; readonly at: number } | undefined;
  #inFlight: Promise<T> | undefined;
  readonly #fetch: () => Promise<T>;
  readonly #stale: (v: T, fetchedAt: number) => boolean;
  /** Whether a failed refresh may keep serving the previous value (a token file mid-rotation). */
  readonly #keepOnError: boolean;
  readonly #clock: Clock;
  constructor(
    fetch: () => Promise<T>,
    stale: (v: T, fetchedAt: number) => boolean,
    keepOnError: boolean,
    clock: Clock,
  ) {
    this.#fetch = fetch;
    this.#stale = stale;
    this.#keepOnError = keepOnError;
    this.#clock = clock;
  }
  get(): Promise<T> {
    const cur = this.#value;
    if (cur && !this.#stale(cur.v, cur.at)) return Promise.resolve(cur.v);
    this.#inFlight ??= this.#fetch()
      .then(
        (v) => {
          this.#value = { v, at: this.#clock.now() };
          return v;
        },
        (err: unknown) => {
          if (this.#keepOnError && cur) return cur.v;
          throw err;
        },
      )
      .finally(() => {
        this.#inFlight = undefined;
      });
    return this.#inFlight;
  }
  invalidate(): void {
    this.#value = undefined;
  }
}

export function createAuthenticator(config: RestConfig, opts: AuthenticatorOptions = {}): Authenticator {
  const clock = opts.clock ?? systemClock;
  const extra = impersonationHeaders(config);
  const auth = config.auth;
  switch (auth.type) {
    case "none":
    case "token":
    case "basic": {
      const headers: AuthHeaders = {
        ...extra,
        ...(auth.type === "token" ? { authorization: `Bearer ${auth.token}` } : {}),
        ...(auth.type === "basic"
          ? { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}` }
          : {}),
      };
      const fixed = Promise.resolve({ headers });
      return { credentials: () => fixed, unauthorized: () => {} };
    }
    case "tokenFile": {
      const refreshMs = opts.tokenFileRefreshMs ?? 60_000;
      const read = opts.readTextFile ?? ((p: string) => readFile(p, "utf8"));
      const token = new Refreshing<RequestCredentials>(
        async () => {
          let text: string;
          try {
            text = (await read(auth.path)).trim();
          } catch (err) {
            const why = readFailure(err);
            throw new Error(`cannot read the bearer token file ${auth.path} (${why})`);
          }
          if (text === "") throw new Error(`the bearer token file ${auth.path} is empty`);
          return { headers: { ...extra, authorization: `Bearer ${text}` } };
        },
        (_v, at) => clock.now() - at >= refreshMs,
        true,
        clock,
      );
      return { credentials: () => token.get(), unauthorized: () => token.invalidate() };
    }
    case "exec": {
      const run = opts.runExec ?? runExecPlugin;
      const cred = new Refreshing<ExecCredential>(
        () => run(auth.exec, config),
        (c) => c.expiresAt !== undefined && clock.now() >= c.expiresAt - 5_000,
        false,
        clock,
      );
      return {
        credentials: async () => {
          const c = await cred.get();
          return {
            headers: { ...extra, ...(c.token !== undefined ? { authorization: `Bearer ${c.token}` } : {}) },
            ...(c.cert !== undefined && c.key !== undefined ? { cert: c.cert, key: c.key } : {}),
          };
        },
        unauthorized: () => cred.invalidate(),
      };
    }
  }
}
