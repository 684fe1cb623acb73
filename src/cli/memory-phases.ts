// CROSSROLE_MEMORY_PHASES=1: `crossrole run` writes process.memoryUsage() as one JSON line on
// stderr at each phase of its life — `imports` (the controller's modules loaded), `started`
// (manager running), `synced` (every informer's cache filled) — and then every second (`run`),
// so a benchmark or a person can see where resident memory goes and when. Off by default: it
// costs nothing unless set. (For what holds the heap, add NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2
// and send the process SIGUSR2.)

export interface MemoryPhaseLog {
  mark(phase: string): void;
  /** Marks `synced` once `synced()` holds, then samples `run` every `everyMs` until the process ends. */
  follow(synced: () => boolean, everyMs?: number): void;
}

const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;

export function memoryPhaseLog(
  env: Readonly<Record<string, string | undefined>>,
  write: (line: string) => void = (line) => process.stderr.write(line),
): MemoryPhaseLog | undefined {
  const setting = env["CROSSROLE_MEMORY_PHASES"];
  if (setting === undefined || setting === "" || setting === "0") return undefined;
  const mark = (phase: string) => {
    const u = process.memoryUsage();
    write(
      `${JSON.stringify({
        event: "memory",
        phase,
        uptimeMs: Math.round(process.uptime() * 1000),
        rssMB: mb(u.rss),
        heapUsedMB: mb(u.heapUsed),
        heapTotalMB: mb(u.heapTotal),
        externalMB: mb(u.external),
        arrayBuffersMB: mb(u.arrayBuffers),
      })}\n`,
    );
  };
  return {
    mark,
    follow(synced, everyMs = 1000) {
      const waiting = setInterval(() => {
        if (!synced()) return;
        clearInterval(waiting);
        mark("synced");
        setInterval(() => mark("run"), everyMs).unref();
      }, 50);
      waiting.unref();
    },
  };
}
