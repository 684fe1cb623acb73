// A real headless browser for tests: Debian's chromium (scripts/install-browser.sh installs
// it) renders a local HTML file into a screenshot or into its DOM as parsed, which is how a
// test sees what a person would. Each run gets its own temp profile and HOME, so chromium
// never writes to the real $HOME; it runs under the harness's watchdog (no browser outlives
// the test) with a deadline, and has no network: a page that needs one shows it.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { HarnessError } from "../../src/local-stack/process.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";

const watchdog = join(repoRoot, "src/local-stack/watchdog.sh");

/** Names tried on PATH, the smaller headless-only build first. */
const candidates = ["chromium-headless-shell", "chromium"];

/**
 * The browser to use: $CROSSROLE_BROWSER, else the first of `candidates` on PATH. Throws,
 * saying how to install one, when there is none: browser tests fail loudly rather than skip.
 */
export function browserBinary(): string {
  const chosen = process.env["CROSSROLE_BROWSER"];
  if (chosen) return chosen;
  for (const name of candidates) {
    for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
      if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  throw new HarnessError(
    "browser",
    `none of ${candidates.join(", ")} is on PATH; run scripts/install-browser.sh (or scripts/ensure-deps.sh)`,
  );
}

export interface BrowserOptions {
  /** Viewport width in CSS pixels (default 1400). */
  readonly width?: number;
  /** Viewport height: what a screenshot shows (default 1000). */
  readonly height?: number;
  /** Deadline for the whole run, start-up included (default 60 s: 2 busy cores start it slowly). */
  readonly timeoutMs?: number;
}

/** Renders `htmlFile` and writes a PNG of the viewport to `pngFile`; resolves with its size in bytes. */
export async function screenshot(
  htmlFile: string,
  pngFile: string,
  opts: BrowserOptions = {},
): Promise<number> {
  const out = resolve(pngFile);
  await runBrowser("browser screenshot", [`--screenshot=${out}`], htmlFile, opts);
  if (!existsSync(out)) {
    throw new HarnessError("browser screenshot", `chromium exited without writing ${out}`);
  }
  return statSync(out).size;
}

/** Renders `htmlFile` and resolves with the DOM chromium built from it, serialized as HTML. */
export async function dumpDom(htmlFile: string, opts: BrowserOptions = {}): Promise<string> {
  const dom = await runBrowser("browser dump-dom", ["--dump-dom"], htmlFile, opts);
  if (!dom.includes("<html")) throw new HarnessError("browser dump-dom", "chromium printed no document");
  return dom;
}

/**
 * The page's rendered height at `opts.width`, for a screenshot of all of it (chromium's
 * --screenshot shows the window only). Measured on a copy with one script appended, in a temp
 * dir, since the page itself may (and the audit report does) have none; relative references
 * of the page do not resolve in that copy, which self-contained pages do not have.
 */
export async function pageHeight(htmlFile: string, opts: BrowserOptions = {}): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "crossrole-measure-"));
  try {
    const copy = join(dir, "page.html");
    const measure =
      "<script>document.documentElement.setAttribute('data-measured-height'," +
      " String(Math.ceil(document.documentElement.scrollHeight)))</script>";
    await writeFile(copy, `${await readFile(htmlFile, "utf8")}${measure}`);
    const dom = await runBrowser("browser measure", ["--dump-dom"], copy, opts);
    const height = Number(/data-measured-height="(\d+)"/.exec(dom)?.[1]);
    if (!(height > 0)) throw new HarnessError("browser measure", "the page's height could not be measured");
    return height;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runBrowser(
  step: string,
  mode: readonly string[],
  htmlFile: string,
  opts: BrowserOptions,
): Promise<string> {
  const binary = browserBinary();
  const page = resolve(htmlFile);
  if (!existsSync(page)) throw new HarnessError(step, `no such file: ${page}`);
  const home = await mkdtemp(join(tmpdir(), "crossrole-browser-"));
  const logFile = join(home, "chromium.log");
  const command = [
    binary,
    "--headless",
    // The sandbox needs namespaces a root process in a container does not get; the page is ours.
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-component-update",
    "--disable-background-networking",
    "--disable-sync",
    "--mute-audio",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    // No name resolves: a page that loads anything from elsewhere renders without it.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    `--user-data-dir=${join(home, "profile")}`,
    `--window-size=${opts.width ?? 1400},${opts.height ?? 1000}`,
    ...mode,
    pathToFileURL(page).href,
  ];
  // Chromium (and Debian's wrapper) also write under $HOME and XDG dirs: all inside the temp dir.
  const env = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_DATA_HOME: join(home, "data"),
    TMPDIR: home,
  };
  try {
    return await run(step, command, env, logFile, opts.timeoutMs ?? 60_000);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** Runs `command` to completion under the watchdog: its stdout, or a HarnessError. */
function run(
  step: string,
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // detached: the watchdog leads a process group holding chromium and its helpers, so a
    // timeout ends them all.
    const child = spawn(watchdog, [String(process.pid), ...command], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    const log = createWriteStream(logFile);
    child.stderr.pipe(log);
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new HarnessError(step, `could not start: ${error.message}`, command));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // The log stream must be flushed before its tail is read into an error.
      log.end(() => {
        if (timedOut) {
          reject(new HarnessError(step, `chromium did not finish within ${timeoutMs} ms`, command, logFile));
        } else if (code !== 0) {
          reject(new HarnessError(step, `chromium exited with ${code ?? signal}`, command, logFile));
        } else {
          resolvePromise(Buffer.concat(chunks).toString("utf8"));
        }
      });
    });
  });
}
