// The probe and metrics endpoints: /healthz (the process is alive), /readyz (it can do its
// job: caches synced, plus any check the caller adds) and /metrics (Prometheus text format).
// Checks answer like the apiserver's and controller-runtime's: 200 "ok", or an error status
// (500; the manager's /readyz uses 503) listing `[+]name ok` / `[-]name failed: reason`
// (always listed with ?verbose).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import { nodeHttp } from "./node-http.ts";

/** A named check: returns true/undefined when fine; false or a string (the reason) or a throw when not. */
export interface HealthCheck {
  readonly name: string;
  check(): boolean | string | undefined | Promise<boolean | string | undefined>;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ProbeServer {
  /** "http://127.0.0.1:port" as actually bound. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Parses ":8080", "0.0.0.0:8080", "127.0.0.1:0" or "8080" (port 0 picks a free port). */
export function parseListenAddress(addr: string): { host: string | undefined; port: number } {
  const i = addr.lastIndexOf(":");
  const host = i > 0 ? addr.slice(0, i).replace(/^\[|\]$/g, "") : undefined;
  const port = Number(i >= 0 ? addr.slice(i + 1) : addr);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid listen address "${addr}"`);
  return { host, port };
}

/** A handler that runs `checks` (all of them, in parallel) and answers 200 or `failureStatus` (500). */
export function checksHandler(
  checks: () => readonly HealthCheck[],
  opts: { readonly failureStatus?: number } = {},
): RouteHandler {
  const failureStatus = opts.failureStatus ?? 500;
  return async (req, res) => {
    const verbose = new URL(req.url ?? "/", "http://x").searchParams.has("verbose");
    const results = await Promise.all(
      checks().map(async (c) => {
        try {
          const r = await c.check();
          return { name: c.name, ok: r === true || r === undefined, reason: typeof r === "string" ? r : "" };
        } catch (err) {
          return { name: c.name, ok: false, reason: err instanceof Error ? err.message : String(err) };
        }
      }),
    );
    const ok = results.every((r) => r.ok);
    const lines = results.map((r) =>
      r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed${r.reason ? `: ${r.reason}` : ""}`,
    );
    res.writeHead(ok ? 200 : failureStatus, {
      "content-type": "text/plain; charset=utf-8",
      "x-content-type-options": "nosniff",
    });
    if (ok && !verbose) res.end("ok");
    else res.end(`${lines.join("\n")}\n${ok ? "check passed" : "check failed"}\n`);
  };
}

/** A handler that serves a prom-client registry, then the families rendered as text (metric-text.ts). */
export function metricsHandler(
  registry: Registry,
  textFamilies: ReadonlyMap<string, () => string> = new Map(),
): RouteHandler {
  return async (_req, res) => {
    const registered = await registry.metrics();
    const rendered = [...textFamilies.values()].map((render) => render()).join("");
    const body =
      registered === "" || registered.endsWith("\n") ? registered + rendered : `${registered}\n${rendered}`;
    res.writeHead(200, { "content-type": registry.contentType });
    res.end(body);
  };
}

/** Serves `routes` (exact paths, GET) on `addr`; other paths get 404. */
export async function startProbeServer(
  addr: string,
  routes: Readonly<Record<string, RouteHandler>>,
): Promise<ProbeServer> {
  const { host, port } = parseListenAddress(addr);
  const server: Server = nodeHttp.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const handler = routes[path];
    if (!handler || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
      return;
    }
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address();
  if (bound === null || typeof bound === "string")
    throw new Error(`could not read the address bound for ${addr}`);
  const shownHost = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shownHost === "0.0.0.0" || shownHost === "[::]" ? "127.0.0.1" : shownHost}:${bound.port}`,
    port: bound.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
