// A cuttable loopback TCP forwarder: a small net.Server that pipes every connection to a target
// port (the apiserver's), byte for byte, so TLS stays end to end. cut() makes the target
// unreachable as a dead apiserver or load balancer would: every open connection (watches
// included) is reset, and new ones are reset as soon as they are accepted; restore() lets
// connections through again. Tests point the code under test at it with kubeConfigVia().
import { connect, createServer, type Server, type Socket } from "node:net";
import { type RestConfig, withServer } from "../../src/runtime/rest-config.ts";

export interface TcpForwarder {
  /** The forwarder's own port on 127.0.0.1. */
  readonly port: number;
  /** Whether cut() is in force. */
  readonly isCut: boolean;
  /** Connections currently piped through. */
  readonly openConnections: number;
  /** Connections accepted and reset while cut. */
  readonly refusedConnections: number;
  /** Resets every open connection and every new one until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Forwards 127.0.0.1:<port> to `target` (default host 127.0.0.1). */
export async function startTcpForwarder(target: { host?: string; port: number }): Promise<TcpForwarder> {
  const host = target.host ?? "127.0.0.1";
  const open = new Set<Socket>();
  let isCut = false;
  let refused = 0;
  const track = (s: Socket) => {
    open.add(s);
    s.on("close", () => open.delete(s));
  };
  const server: Server = createServer((client) => {
    client.on("error", () => {});
    if (isCut) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, host);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("the forwarder has no port");
  const resetAll = () => {
    for (const s of open) {
      if (s.destroyed) continue;
      // An RST where the socket is connected, as a crashed peer would send; else just destroy.
      if (s.readyState === "open") s.resetAndDestroy();
      else s.destroy();
    }
  };
  return {
    port: addr.port,
    get isCut() {
      return isCut;
    },
    get openConnections() {
      return open.size;
    },
    get refusedConnections() {
      return refused;
    },
    cut() {
      isCut = true;
      resetAll();
    },
    restore() {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        isCut = true;
        resetAll();
        server.close(() => resolve());
      }),
  };
}

/**
 * A copy of `kc` whose current cluster's server is https://127.0.0.1:<port> (the forwarder),
 * keeping the CA and credentials: the apiserver's certificate names 127.0.0.1, so it still
 * verifies through the forwarder.
 */
export function kubeConfigVia(kc: RestConfig, port: number): RestConfig {
  const server = new URL(kc.server);
  server.hostname = "127.0.0.1";
  server.port = String(port);
  return withServer(kc, server.origin);
}
