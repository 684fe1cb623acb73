// The AWS API models the kinds are generated from: botocore's service JSON
// (`botocore/data/<service>/<api-version>/service-2.json.gz`), extracted by
// scripts/install-models.sh at the version pinned in scripts/versions.env. Read at generation
// time only; the controller never loads them.
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

export type AwsShapeType =
  | "structure"
  | "list"
  | "map"
  | "string"
  | "integer"
  | "long"
  | "boolean"
  | "double"
  | "float"
  | "timestamp"
  | "blob";

/** A reference from a structure, list or map to a shape, with its own documentation. */
export interface AwsMember {
  readonly shape: string;
  readonly documentation?: string;
  readonly deprecated?: boolean;
  readonly locationName?: string;
}

export interface AwsShape {
  readonly type: AwsShapeType;
  readonly members?: Readonly<Record<string, AwsMember>>;
  readonly required?: readonly string[];
  readonly member?: AwsMember;
  readonly key?: AwsMember;
  readonly value?: AwsMember;
  readonly enum?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  readonly documentation?: string;
  readonly deprecated?: boolean;
  readonly sensitive?: boolean;
}

export interface AwsOperation {
  readonly name: string;
  readonly input?: { readonly shape: string };
  readonly output?: { readonly shape: string; readonly resultWrapper?: string };
  readonly documentation?: string;
}

export interface AwsModel {
  readonly service: string;
  readonly apiVersion: string;
  readonly operations: Readonly<Record<string, AwsOperation>>;
  readonly shapes: Readonly<Record<string, AwsShape>>;
}

/** The pinned botocore version, from scripts/versions.env (the one place it is written). */
export function botocoreVersion(repoRoot: string): string {
  const env = readFileSync(join(repoRoot, "scripts/versions.env"), "utf8");
  const m = /^BOTOCORE_VERSION=(\S+)$/m.exec(env);
  if (m?.[1] === undefined) throw new Error("scripts/versions.env does not pin BOTOCORE_VERSION");
  return m[1];
}

/** Where install-models.sh put the models (CROSSROLE_CACHE overrides the cache, as everywhere). */
export function modelsDir(repoRoot: string): string {
  const cache = process.env.CROSSROLE_CACHE ?? join(homedir(), ".cache", "crossrole");
  return join(cache, "aws-models", `botocore-${botocoreVersion(repoRoot)}`);
}

/** One service's model, at its newest API version; a missing model names the script to run. */
export function loadModel(dir: string, service: string): AwsModel {
  let versions: string[];
  try {
    versions = readdirSync(join(dir, service)).sort();
  } catch {
    throw new Error(
      `no AWS model for ${service} in ${dir}: run scripts/install-models.sh (or scripts/ensure-deps.sh)`,
    );
  }
  const apiVersion = versions.at(-1);
  if (apiVersion === undefined) throw new Error(`no AWS model version for ${service} in ${dir}`);
  const raw = JSON.parse(
    gunzipSync(readFileSync(join(dir, service, apiVersion, "service-2.json.gz"))).toString("utf8"),
  );
  const operations: Record<string, AwsOperation> = {};
  for (const [name, op] of Object.entries(raw.operations as Record<string, Omit<AwsOperation, "name">>)) {
    operations[name] = { name, ...op };
  }
  return { service, apiVersion, operations, shapes: raw.shapes };
}

/** A shape by name; a declaration naming a missing one fails generation, naming it. */
export function shapeOf(model: AwsModel, name: string): AwsShape {
  const s = model.shapes[name];
  if (s === undefined) throw new Error(`the ${model.service} model has no shape ${name}`);
  return s;
}

/** An operation's input structure. */
export function inputOf(model: AwsModel, operation: string): AwsShape {
  const op = model.operations[operation];
  if (op?.input === undefined)
    throw new Error(`the ${model.service} model has no operation ${operation} with an input`);
  return shapeOf(model, op.input.shape);
}

/** An operation's output structure. */
export function outputOf(model: AwsModel, operation: string): AwsShape {
  const op = model.operations[operation];
  if (op?.output === undefined)
    throw new Error(`the ${model.service} model has no operation ${operation} with an output`);
  return shapeOf(model, op.output.shape);
}
