// A module hook (node --import) that prints every module URL the process loads to stderr as
// `loaded <url>`: what a test of "loaded only when needed" reads.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  process._rawDebug("loaded " + url);
  return next(url, context);
}`)}`,
);
