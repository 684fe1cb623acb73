// Free loopback ports. The kernel picks a free port for a throwaway listener; a small race
// remains until the real server binds it, so servers that fail to bind are retried by callers.
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      if (addr === null || typeof addr === "string") {
        srv.close();
        reject(new Error("could not read the port of a loopback listener"));
        return;
      }
      srv.close(() => resolvePort(addr.port));
    });
  });
}
