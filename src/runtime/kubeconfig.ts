// Kubeconfig files as kubectl reads them: parse one file (paths in it are relative to its
// directory), merge several ($KUBECONFIG's list: the first file to define a name wins, and the
// first to set current-context), and resolve a context to a RestConfig. Pure apart from reading
// the certificate files a kubeconfig names, through `readFile` (injected in tests).
//
// Supported, as client-go: server, certificate-authority(-data), insecure-skip-tls-verify,
// tls-server-name; client-certificate(-data)/client-key(-data), token, tokenFile,
// username/password, as/as-uid/as-groups/as-user-extra, exec credential plugins. Refused with
// the fix named: auth-provider (gcp, azure, oidc; use their exec plugins) and proxy-url.
import { createRequire } from "node:module";
import path from "node:path";
import {
  type ExecConfig,
  type Impersonation,
  KubeconfigError,
  type ReadFile,
  type RestAuth,
  type RestConfig,
  type RestTLS,
  readFailure,
  readUtf8,
} from "./rest-config.ts";

export interface KubeconfigCluster {
  readonly server: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTLSVerify?: boolean;
  readonly tlsServerName?: string;
  readonly proxyURL?: string;
  /** The file it was read from. */
  readonly file: string;
}

export interface KubeconfigUser {
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: string;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly impersonate?: Impersonation;
  readonly authProvider?: string;
  readonly exec?: ExecConfig;
  readonly file: string;
}

export interface KubeconfigContext {
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
  readonly file: string;
}

export interface Kubeconfig {
  readonly clusters: ReadonlyMap<string, KubeconfigCluster>;
  readonly users: ReadonlyMap<string, KubeconfigUser>;
  readonly contexts: ReadonlyMap<string, KubeconfigContext>;
  /** "" when no file sets it. */
  readonly currentContext: string;
  /** The files it was read from, in order. */
  readonly files: readonly string[];
}

type Obj = Record<string, unknown>;

const require = createRequire(import.meta.url);
/**
 * JSON as is; YAML through the `yaml` package, loaded on first use only: a controller that runs
 * in-cluster never reads a kubeconfig and never holds a YAML parser in memory.
 */
function parseDocument(text: string): unknown {
  if (text.trimStart().startsWith("{")) return JSON.parse(text);
  return (require("yaml") as typeof import("yaml")).parse(text);
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads typed fields of one kubeconfig entry, naming the file and entry when one is wrong. */
class Fields {
  readonly #o: Obj;
  readonly #where: string;
  constructor(o: Obj, where: string) {
    this.#o = o;
    this.#where = where;
  }
  string(key: string): string | undefined {
    const v = this.#o[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v !== "string") throw new KubeconfigError(`${this.#where}: ${key} must be a string.`);
    return v;
  }
  boolean(key: string): boolean | undefined {
    const v = this.#o[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") throw new KubeconfigError(`${this.#where}: ${key} must be true or false.`);
    return v;
  }
  strings(key: string): string[] {
    const v = this.#o[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== "string"))
      throw new KubeconfigError(`${this.#where}: ${key} must be a list of strings.`);
    return v as string[];
  }
  object(key: string): Obj | undefined {
    const v = this.#o[key];
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) throw new KubeconfigError(`${this.#where}: ${key} must be a mapping.`);
    return v;
  }
}

/** Named entries (`clusters`, `users`, `contexts`): name → the inner mapping. */
function namedEntries(doc: Obj, list: string, inner: string, file: string): [string, Obj][] {
  const v = doc[list];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new KubeconfigError(`kubeconfig ${file}: ${list} must be a list.`);
  return v.map((item, i): [string, Obj] => {
    if (!isObj(item) || typeof item["name"] !== "string" || item["name"] === "")
      throw new KubeconfigError(`kubeconfig ${file}: ${list}[${i}] has no name.`);
    const body = item[inner] ?? {};
    if (!isObj(body))
      throw new KubeconfigError(
        `kubeconfig ${file}: ${list} entry ${item["name"]}: ${inner} must be a mapping.`,
      );
    return [item["name"], body];
  });
}

/** A path in a kubeconfig, made absolute against the file's directory (as kubectl does). */
const resolveIn = (file: string, p: string | undefined) =>
  p === undefined ? undefined : path.resolve(path.dirname(file), p);

function parseExec(e: Obj, file: string, where: string): ExecConfig {
  const f = new Fields(e, `${where}: exec`);
  const command = f.string("command");
  if (command === undefined) throw new KubeconfigError(`${where}: exec has no command.`);
  const envList = e["env"] ?? [];
  if (!Array.isArray(envList)) throw new KubeconfigError(`${where}: exec.env must be a list.`);
  const env = envList.map((item, i) => {
    if (!isObj(item) || typeof item["name"] !== "string" || typeof (item["value"] ?? "") !== "string")
      throw new KubeconfigError(`${where}: exec.env[${i}] needs a name and a string value.`);
    return { name: item["name"], value: String(item["value"] ?? "") };
  });
  const apiVersion = f.string("apiVersion") ?? "";
  if (!/^client\.authentication\.k8s\.io\/(v1|v1beta1)$/.test(apiVersion)) {
    throw new KubeconfigError(
      `${where}: exec apiVersion ${apiVersion || "(none)"} is not supported; use client.authentication.k8s.io/v1 (or v1beta1).`,
    );
  }
  const installHint = f.string("installHint");
  return {
    command,
    args: f.strings("args"),
    env,
    apiVersion,
    provideClusterInfo: f.boolean("provideClusterInfo") ?? false,
    baseDir: path.dirname(file),
    ...(installHint ? { installHint } : {}),
  };
}

function parseUser(o: Obj, file: string, name: string): KubeconfigUser {
  const where = `kubeconfig ${file}: user ${name}`;
  const f = new Fields(o, where);
  const as = f.string("as");
  const extra = f.object("as-user-extra") ?? {};
  const groups = f.strings("as-groups");
  const exec = f.object("exec");
  const authProvider = f.object("auth-provider");
  const uid = f.string("as-uid");
  const user: KubeconfigUser = {
    file,
    clientCertificate: resolveIn(file, f.string("client-certificate")),
    clientCertificateData: f.string("client-certificate-data"),
    clientKey: resolveIn(file, f.string("client-key")),
    clientKeyData: f.string("client-key-data"),
    token: f.string("token"),
    tokenFile: resolveIn(file, f.string("tokenFile")),
    username: f.string("username"),
    password: f.string("password"),
    authProvider: authProvider ? String(authProvider["name"] ?? "(unnamed)") : undefined,
    exec: exec ? parseExec(exec, file, where) : undefined,
    impersonate:
      as !== undefined || groups.length > 0
        ? {
            user: as ?? "",
            groups,
            extra: Object.fromEntries(
              Object.entries(extra).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : [String(v)]]),
            ),
            ...(uid ? { uid } : {}),
          }
        : undefined,
  };
  return user;
}

function parseCluster(o: Obj, file: string, name: string): KubeconfigCluster {
  const f = new Fields(o, `kubeconfig ${file}: cluster ${name}`);
  return {
    file,
    server: f.string("server") ?? "",
    certificateAuthority: resolveIn(file, f.string("certificate-authority")),
    certificateAuthorityData: f.string("certificate-authority-data"),
    insecureSkipTLSVerify: f.boolean("insecure-skip-tls-verify"),
    tlsServerName: f.string("tls-server-name"),
    proxyURL: f.string("proxy-url"),
  };
}

function parseContext(o: Obj, file: string, name: string): KubeconfigContext {
  const f = new Fields(o, `kubeconfig ${file}: context ${name}`);
  return {
    file,
    cluster: f.string("cluster") ?? "",
    user: f.string("user") ?? "",
    namespace: f.string("namespace"),
  };
}

/** Parses one kubeconfig file's text (YAML or JSON). `file` names it in errors and anchors relative paths. */
export function parseKubeconfig(text: string, file: string): Kubeconfig {
  let doc: unknown;
  try {
    doc = parseDocument(text);
  } catch (err) {
    throw new KubeconfigError(
      `kubeconfig ${file}: not valid YAML or JSON (${err instanceof Error ? err.message.split("\n")[0] : String(err)}).`,
    );
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isObj(doc)) throw new KubeconfigError(`kubeconfig ${file}: not a kubeconfig (expected a mapping).`);
  const entries = <T>(list: string, inner: string, parse: (o: Obj, file: string, name: string) => T) => {
    const map = new Map<string, T>();
    for (const [name, body] of namedEntries(doc as Obj, list, inner, file)) {
      if (!map.has(name)) map.set(name, parse(body, file, name));
    }
    return map;
  };
  const current = doc["current-context"];
  return {
    clusters: entries("clusters", "cluster", parseCluster),
    users: entries("users", "user", parseUser),
    contexts: entries("contexts", "context", parseContext),
    currentContext: typeof current === "string" ? current : "",
    files: [file],
  };
}

/** kubectl's merge of a $KUBECONFIG list: the first file to define a name wins, and the first current-context. */
export function mergeKubeconfigs(configs: readonly Kubeconfig[]): Kubeconfig {
  const merge = <T>(pick: (c: Kubeconfig) => ReadonlyMap<string, T>) => {
    const out = new Map<string, T>();
    for (const c of configs) for (const [k, v] of pick(c)) if (!out.has(k)) out.set(k, v);
    return out;
  };
  return {
    clusters: merge((c) => c.clusters),
    users: merge((c) => c.users),
    contexts: merge((c) => c.contexts),
    currentContext: configs.find((c) => c.currentContext !== "")?.currentContext ?? "",
    files: configs.flatMap((c) => c.files),
  };
}

/** Which kubeconfig, for messages: "kubeconfig a:b". */
function describeKubeconfig(kc: Kubeconfig): string {
  return `kubeconfig ${kc.files.join(path.delimiter)}`;
}

function contextList(kc: Kubeconfig): string {
  return [...kc.contexts.keys()].join(", ") || "(none)";
}

/** Inline `*-data` (base64) or a file; a file that cannot be read names itself and the entry. */
function material(
  where: string,
  field: string,
  data: string | undefined,
  file: string | undefined,
  readFile: ReadFile,
): string | undefined {
  if (data !== undefined) return Buffer.from(data, "base64").toString("utf8");
  if (file === undefined) return undefined;
  try {
    return readFile(file);
  } catch (err) {
    throw new KubeconfigError(`${where}: ${field} ${file} cannot be read (${readFailure(err)}).`);
  }
}

export interface ResolveOptions {
  /** --context: overrides current-context. */
  readonly context?: string;
  readonly readFile?: ReadFile;
}

/** The RestConfig of a context (--context, else current-context), with its files read. */
export function restConfigFromKubeconfig(kc: Kubeconfig, opts: ResolveOptions = {}): RestConfig {
  const which = describeKubeconfig(kc);
  const readFile = opts.readFile ?? readUtf8;
  const contextName = opts.context ?? kc.currentContext;
  if (contextName === "") {
    throw new KubeconfigError(
      `${which} sets no current-context; pick one with --context (contexts: ${contextList(kc)}).`,
    );
  }
  const context = kc.contexts.get(contextName);
  if (!context) {
    throw new KubeconfigError(
      opts.context !== undefined
        ? `--context ${contextName}: no such context in ${which}. Contexts: ${contextList(kc)}.`
        : `${which}: current-context ${contextName} is not defined in it; pick one with --context (contexts: ${contextList(kc)}).`,
    );
  }
  const cluster = kc.clusters.get(context.cluster);
  if (!cluster) {
    throw new KubeconfigError(
      context.cluster === ""
        ? `${which}: context ${contextName} names no cluster. Pick another with --context.`
        : `${which}: context ${contextName} names cluster ${context.cluster}, which is not defined.`,
    );
  }
  const clusterWhere = `kubeconfig ${cluster.file}: cluster ${context.cluster}`;
  if (cluster.server === "") throw new KubeconfigError(`${clusterWhere} has no server.`);
  if (cluster.proxyURL !== undefined) {
    throw new KubeconfigError(
      `${clusterWhere}: proxy-url is not supported; reach the server directly (or through a tunnel) and remove proxy-url.`,
    );
  }
  // A server without a scheme is https, as client-go reads it.
  const serverURL = cluster.server.includes("://") ? cluster.server : `https://${cluster.server}`;
  let server: URL;
  try {
    server = new URL(serverURL);
  } catch {
    throw new KubeconfigError(`${clusterWhere}: server ${cluster.server} is not a URL.`);
  }
  if (server.protocol !== "https:" && server.protocol !== "http:")
    throw new KubeconfigError(`${clusterWhere}: server ${cluster.server} is not an http(s) URL.`);

  let user: KubeconfigUser | undefined;
  if (context.user !== "") {
    user = kc.users.get(context.user);
    if (!user) {
      throw new KubeconfigError(
        `${which}: context ${contextName} names user ${context.user}, which is not defined.`,
      );
    }
  }
  const userWhere = `kubeconfig ${user?.file ?? ""}: user ${context.user}`;
  if (user?.authProvider !== undefined) {
    throw new KubeconfigError(
      `${userWhere}: auth-provider ${user.authProvider} is not supported (kubectl dropped it too); ` +
        "use the provider's exec credential plugin (e.g. gke-gcloud-auth-plugin, kubelogin) in an exec section.",
    );
  }
  const ca = material(
    clusterWhere,
    "certificate-authority",
    cluster.certificateAuthorityData,
    cluster.certificateAuthority,
    readFile,
  );
  const cert = user
    ? material(userWhere, "client-certificate", user.clientCertificateData, user.clientCertificate, readFile)
    : undefined;
  const key = user
    ? material(userWhere, "client-key", user.clientKeyData, user.clientKey, readFile)
    : undefined;
  if ((cert === undefined) !== (key === undefined)) {
    throw new KubeconfigError(`${userWhere}: a client certificate needs its key, and a key its certificate.`);
  }
  const tls: RestTLS = {
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
    ...(cluster.insecureSkipTLSVerify ? { insecureSkipTLSVerify: true } : {}),
    ...(cluster.tlsServerName ? { serverName: cluster.tlsServerName } : {}),
  };
  let auth: RestAuth = { type: "none" };
  if (user?.exec) auth = { type: "exec", exec: user.exec };
  else if (user?.tokenFile) auth = { type: "tokenFile", path: user.tokenFile };
  else if (user?.token) auth = { type: "token", token: user.token };
  else if (user?.username !== undefined)
    auth = { type: "basic", username: user.username, password: user.password ?? "" };
  return {
    server: serverURL.replace(/\/+$/, ""),
    tls,
    auth,
    ...(user?.impersonate ? { impersonate: user.impersonate } : {}),
    ...(context.namespace ? { namespace: context.namespace } : {}),
    context: contextName,
    source: `${which} (context ${contextName})`,
  };
}

/** Reads, merges and resolves kubeconfig files (a missing or unreadable file is an error naming it). */
export function loadKubeconfigFiles(files: readonly string[], opts: ResolveOptions = {}): RestConfig {
  const readFile = opts.readFile ?? readUtf8;
  const configs = files.map((file) => {
    let text: string;
    try {
      text = readFile(file);
    } catch (err) {
      throw new KubeconfigError(`kubeconfig ${file}: cannot read it (${readFailure(err)}).`);
    }
    return parseKubeconfig(text, file);
  });
  return restConfigFromKubeconfig(mergeKubeconfigs(configs), opts);
}
