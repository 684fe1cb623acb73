// The sources are TypeScript, which Node runs by stripping the types with a WebAssembly build
// of swc. Once loaded, that compiler stays resident for the life of the process (~25 MB of RSS
// for the controller's modules) and costs ~1 s of start-up. So `crossrole` loads each source's
// stripped JavaScript from a cache keyed by the source's content (and Node's version), and only
// a source that is not there yet (one just edited) is stripped by Node as usual — always
// correct, never stale. scripts/warm-js-cache.js fills the cache; the image ships one. Plain
// JavaScript: this runs before any TypeScript does.
// (Node's own compile cache would do the same, but keeps every cached module in memory too.)
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/** $CROSSROLE_JS_CACHE, else $CROSSROLE_CACHE/js (default ~/.cache/crossrole/js), per Node version. */
export function jsCacheDir(env = process.env) {
  const base =
    env.CROSSROLE_JS_CACHE || join(env.CROSSROLE_CACHE || join(home(), ".cache", "crossrole"), "js");
  return join(base, process.version);
}

/** A uid without a passwd entry and no $HOME has no home directory. */
function home() {
  try {
    return homedir();
  } catch {
    return tmpdir();
  }
}

/** The cache file name of a source (its bytes). */
export function jsCacheName(source) {
  return `${createHash("sha256").update(source).digest("hex").slice(0, 40)}.js`;
}

/** Serves cached stripped JavaScript for the TypeScript modules under `rootUrl` (a file: URL ending in /). */
export function useJsCache(rootUrl, dir = jsCacheDir()) {
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (loaded.format !== "module-typescript" || !url.startsWith(rootUrl)) return loaded;
      let source;
      try {
        source = readFileSync(join(dir, jsCacheName(loaded.source)), "utf8");
      } catch {
        return loaded; // not cached: Node strips it
      }
      return { format: "module", source, shortCircuit: true };
    },
  });
}
