// Reads Kubernetes manifests from files and directories (`--from`), the way `kubectl apply -f
// -R` would: .yaml/.yml/.json files, directories walked recursively, multi-document YAML and
// `kind: List` expanded. Every object remembers where it came from so errors can point at it.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { badInput } from "./errors.ts";
import { type KubeObject, metadataString } from "./inputs.ts";

export interface ManifestObject {
  readonly object: KubeObject;
  /** e.g. `examples/alice/namespaces.yaml (document 2)`, relative to the working directory. */
  readonly origin: string;
}

const manifestExtensions = [".yaml", ".yml", ".json"];

export async function loadManifests(paths: readonly string[], cwd: string): Promise<ManifestObject[]> {
  const files: string[] = [];
  for (const given of paths) {
    files.push(...(await manifestFiles(path.resolve(cwd, given), given)));
  }
  const objects: ManifestObject[] = [];
  for (const file of files) {
    objects.push(...(await readManifestFile(file, path.relative(cwd, file) || file)));
  }
  return objects;
}

async function manifestFiles(absolute: string, given: string): Promise<string[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absolute);
  } catch (error) {
    throw badInput(
      `--from ${given}: cannot read it (${systemReason(error)}). Pass an existing file or directory.`,
    );
  }
  if (!info.isDirectory()) return [absolute];
  let entries: string[];
  try {
    entries = await readdir(absolute, { recursive: true });
  } catch (error) {
    throw badInput(`--from ${given}: cannot list the directory (${systemReason(error)}).`);
  }
  // Sorted so that the objects, and therefore duplicate reports, do not depend on the file system.
  const found = entries
    .filter((entry) => manifestExtensions.includes(path.extname(entry).toLowerCase()))
    .map((entry) => path.join(absolute, entry))
    .sort();
  const files: string[] = [];
  for (const file of found) {
    if ((await stat(file)).isFile()) files.push(file);
  }
  return files;
}

async function readManifestFile(file: string, shown: string): Promise<ManifestObject[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw badInput(`--from ${shown}: cannot read it (${systemReason(error)}).`);
  }
  if (path.extname(file).toLowerCase() === ".json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw badInput(
        `${shown}: invalid JSON (${error instanceof Error ? error.message : String(error)}). Fix the file.`,
      );
    }
    return expand(parsed, shown);
  }
  const objects: ManifestObject[] = [];
  const documents = parseAllDocuments(text, { prettyErrors: true });
  // parseAllDocuments returns an EmptyStream (not an array) for a file without documents.
  if (!Array.isArray(documents)) return objects;
  documents.forEach((document, index) => {
    const origin = documents.length > 1 ? `${shown} (document ${index + 1})` : shown;
    const error = document.errors[0];
    if (error !== undefined) {
      const line = error.linePos?.[0].line;
      throw badInput(
        `${origin}: invalid YAML${line === undefined ? "" : ` at line ${line}`}: ${error.message.split("\n")[0]}. Fix the file.`,
      );
    }
    objects.push(...expand(document.toJS(), origin));
  });
  return objects;
}

function expand(value: unknown, origin: string): ManifestObject[] {
  if (value === null || value === undefined) return []; // empty document, e.g. a trailing `---`
  if (typeof value !== "object" || Array.isArray(value)) {
    throw badInput(`${origin}: expected a Kubernetes object (a mapping with apiVersion, kind, metadata).`);
  }
  const object = value as KubeObject;
  // `kubectl get -o yaml` writes `kind: List` (or `<Kind>List`) with the objects in items.
  const items = object["items"];
  const kind = object["kind"];
  if (kind === "List" || (typeof kind === "string" && kind.endsWith("List") && Array.isArray(items))) {
    if (!Array.isArray(items)) throw badInput(`${origin}: a List needs an items array.`);
    return items.flatMap((item, index) => expand(item, `${origin} item ${index + 1}`));
  }
  for (const field of ["apiVersion", "kind"] as const) {
    if (typeof object[field] !== "string" || object[field] === "") {
      throw badInput(
        `${origin}: the object has no ${field}; every manifest needs apiVersion, kind and metadata.name.`,
      );
    }
  }
  if (metadataString(object, "name") === undefined) {
    throw badInput(
      `${origin}: ${String(object["kind"])} has no metadata.name; every manifest needs apiVersion, kind and metadata.name.`,
    );
  }
  return [{ object, origin }];
}

function systemReason(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code === "ENOENT" ? "no such file or directory" : error.code;
  }
  return String(error);
}
