// How bench:e2e reads the controller process's memory: VmRSS / VmHWM from /proc, the steady
// RSS once it stops falling, and the phase lines `crossrole run` writes with
// CROSSROLE_MEMORY_PHASES=1 (src/cli/memory-phases.ts).
import { readFile } from "node:fs/promises";
import { setInterval } from "node:timers/promises";

async function statusField(pid: number | undefined, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

/** Resident memory now, MB. */
export const rssMB = (pid: number | undefined) => statusField(pid, "VmRSS");
/** The highest resident memory so far (the kernel's high-water mark), MB. */
export const peakRssMB = (pid: number | undefined) => statusField(pid, "VmHWM");

/**
 * The resident memory an idle process settles at: VmRSS sampled every `intervalMs` (1 s) until
 * it has not reached a new low for `samples` (15) samples in a row, or `timeoutMs` passed.
 * Returns the lowest value seen. The window is wider than V8's memory reducer's first delay
 * (~8 s after the work stops), which is when an idle heap gives pages back.
 */
export async function steadyRssMB(
  pid: number | undefined,
  opts: { intervalMs?: number; samples?: number; timeoutMs?: number } = {},
): Promise<{ rssMB: number; settledSeconds: number }> {
  const started = performance.now();
  const samples = opts.samples ?? 15;
  const deadline = started + (opts.timeoutMs ?? 90_000);
  let low = await rssMB(pid);
  let sinceLow = 0;
  // A fixed sampling cadence (waitFor's interval grows and is capped; this one must not).
  for await (const _ of setInterval(opts.intervalMs ?? 1000)) {
    const now = await rssMB(pid);
    if (now < low) {
      low = now;
      sinceLow = 0;
    } else sinceLow++;
    // Still falling at the deadline: report the lowest so far.
    if (sinceLow >= samples || performance.now() >= deadline) break;
  }
  return { rssMB: low, settledSeconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

interface PhaseLine {
  readonly event: "memory";
  readonly phase: string;
  readonly uptimeMs: number;
  readonly rssMB: number;
  readonly heapUsedMB: number;
  readonly heapTotalMB: number;
  readonly externalMB: number;
  readonly arrayBuffersMB: number;
}

export interface PhaseFigures {
  readonly rssMB: number;
  readonly heapUsedMB: number;
  readonly heapTotalMB: number;
  readonly externalMB: number;
}

const figures = (l: PhaseLine): PhaseFigures => ({
  rssMB: l.rssMB,
  heapUsedMB: l.heapUsedMB,
  heapTotalMB: l.heapTotalMB,
  externalMB: l.externalMB,
});

/** The phase lines in the controller's log file. */
export async function readPhases(logFile: string): Promise<PhaseLine[]> {
  const lines: PhaseLine[] = [];
  for (const line of (await readFile(logFile, "utf8")).split("\n")) {
    if (!line.includes('"event":"memory"')) continue;
    try {
      lines.push(JSON.parse(line) as PhaseLine);
    } catch {
      // a line cut by the process's end
    }
  }
  return lines;
}

/**
 * process.memoryUsage() at each phase: after the imports, when the caches synced, at the
 * highest-RSS sample of the run, and the last sample (idle). `startupSeconds`: process start
 * → every informer synced (no leader election in the bench, so the process leads at once).
 */
export function summarisePhases(lines: readonly PhaseLine[]) {
  const at = (phase: string) => lines.find((l) => l.phase === phase);
  const run = lines.filter((l) => l.phase === "run");
  const peak = run.reduce<PhaseLine | undefined>((p, l) => (p && p.rssMB >= l.rssMB ? p : l), undefined);
  const imports = at("imports");
  const synced = at("synced");
  const idle = run.at(-1);
  return {
    startupSeconds: synced ? Number((synced.uptimeMs / 1000).toFixed(2)) : null,
    phases: {
      ...(imports ? { imports: figures(imports) } : {}),
      ...(synced ? { synced: figures(synced) } : {}),
      ...(peak ? { runPeak: figures(peak) } : {}),
      ...(idle ? { idle: figures(idle) } : {}),
    },
  };
}
