// The kubeconfig loader, in-process: fixtures shaped like the files real tools write (the test
// harness, kind, EKS's `aws eks update-kubeconfig`, kubectl's merged $KUBECONFIG), read through
// an in-memory file system.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { inClusterConfig } from "./in-cluster.ts";
import {
  loadKubeconfigFiles,
  mergeKubeconfigs,
  parseKubeconfig,
  restConfigFromKubeconfig,
} from "./kubeconfig.ts";
import { KubeconfigError, type RestConfig, withServer, withToken } from "./rest-config.ts";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const caPEM = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
const certPEM = "-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n";
const keyPEM = "-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n";

/** An in-memory file system: readFile throws ENOENT for anything else. */
function files(map: Record<string, string>) {
  return (file: string): string => {
    const text = map[file];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${file}`), { code: "ENOENT" });
    return text;
  };
}

// As test/harness/control-plane.ts writes it.
const harness = `apiVersion: v1
kind: Config
clusters:
- name: crossrole-local
  cluster:
    server: https://127.0.0.1:40123
    certificate-authority-data: ${b64(caPEM)}
users:
- name: admin
  user:
    token: abc123
contexts:
- name: crossrole-local
  context: {cluster: crossrole-local, user: admin}
current-context: crossrole-local
`;

// As kind writes it: client certificate and key inline.
const kind = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${b64(caPEM)}
    server: https://127.0.0.1:35555/
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    user: kind-kind
    namespace: team-a
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: ${b64(certPEM)}
    client-key-data: ${b64(keyPEM)}
`;

// As `aws eks update-kubeconfig` writes it: an exec plugin.
const eks = `apiVersion: v1
clusters:
- cluster:
    certificate-authority: certs/eks-ca.crt
    server: https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com
  name: arn:aws:eks:eu-west-1:111111111111:cluster/prod
contexts:
- context:
    cluster: arn:aws:eks:eu-west-1:111111111111:cluster/prod
    user: arn:aws:eks:eu-west-1:111111111111:cluster/prod
  name: prod
current-context: prod
kind: Config
preferences: {}
users:
- name: arn:aws:eks:eu-west-1:111111111111:cluster/prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args: [--region, eu-west-1, eks, get-token, --cluster-name, prod, --output, json]
      command: aws
      env:
      - name: AWS_PROFILE
        value: ops
      installHint: Install the AWS CLI v2.
      interactiveMode: Never
`;

const load = (fs: Record<string, string>, list: string[], context?: string): RestConfig =>
  loadKubeconfigFiles(list, { readFile: files(fs), ...(context !== undefined ? { context } : {}) });

function rejects(fn: () => unknown, message: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof KubeconfigError, `expected a KubeconfigError, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

describe("kubeconfig: one file", () => {
  test("the harness's: server, inline CA, bearer token, current context", () => {
    const rc = load({ "/t/kubeconfig": harness }, ["/t/kubeconfig"]);
    assert.deepEqual(rc, {
      server: "https://127.0.0.1:40123",
      tls: { ca: caPEM },
      auth: { type: "token", token: "abc123" },
      context: "crossrole-local",
      source: "kubeconfig /t/kubeconfig (context crossrole-local)",
    });
  });

  test("kind's: client certificate and key inline, the context's namespace, trailing slash dropped", () => {
    const rc = load({ "/k": kind }, ["/k"]);
    assert.equal(rc.server, "https://127.0.0.1:35555");
    assert.deepEqual(rc.tls, { ca: caPEM, cert: certPEM, key: keyPEM });
    assert.deepEqual(rc.auth, { type: "none" });
    assert.equal(rc.namespace, "team-a");
  });

  test("EKS's: CA file relative to the kubeconfig's directory, exec plugin with args and env", () => {
    const rc = load({ "/home/u/.kube/config": eks, "/home/u/.kube/certs/eks-ca.crt": caPEM }, [
      "/home/u/.kube/config",
    ]);
    assert.equal(rc.tls.ca, caPEM);
    assert.deepEqual(rc.auth, {
      type: "exec",
      exec: {
        command: "aws",
        args: ["--region", "eu-west-1", "eks", "get-token", "--cluster-name", "prod", "--output", "json"],
        env: [{ name: "AWS_PROFILE", value: "ops" }],
        apiVersion: "client.authentication.k8s.io/v1beta1",
        provideClusterInfo: false,
        baseDir: "/home/u/.kube",
        installHint: "Install the AWS CLI v2.",
      },
    });
  });

  test("files named by the kubeconfig: certificates and key are read, a token file is kept as a path", () => {
    const text = `clusters:
- name: c
  cluster: {server: "https://10.0.0.1:6443", certificate-authority: /pki/ca.crt, tls-server-name: api.internal}
users:
- name: u
  user: {client-certificate: ../pki/u.crt, client-key: ../pki/u.key, tokenFile: token}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`;
    const rc = load(
      { "/etc/kc/config": text, "/pki/ca.crt": caPEM, "/etc/pki/u.crt": certPEM, "/etc/pki/u.key": keyPEM },
      ["/etc/kc/config"],
    );
    assert.deepEqual(rc.tls, { ca: caPEM, cert: certPEM, key: keyPEM, serverName: "api.internal" });
    assert.deepEqual(rc.auth, { type: "tokenFile", path: "/etc/kc/token" });
  });

  test("a certificate file that cannot be read names the entry, the field and the file", () => {
    const text = harness.replace(/certificate-authority-data: .*/, "certificate-authority: missing-ca.crt");
    rejects(
      () => load({ "/t/kubeconfig": text }, ["/t/kubeconfig"]),
      /^kubeconfig \/t\/kubeconfig: cluster crossrole-local: certificate-authority \/t\/missing-ca\.crt cannot be read \(ENOENT\)\.$/,
    );
  });

  test("basic auth, insecure-skip-tls-verify and impersonation", () => {
    const text = `clusters: [{name: c, cluster: {server: "https://h:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {username: bob, password: pw, as: alice, as-groups: [devs, ops], as-user-extra: {scopes: [view]}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`;
    const rc = load({ "/c": text }, ["/c"]);
    assert.deepEqual(rc.tls, { insecureSkipTLSVerify: true });
    assert.deepEqual(rc.auth, { type: "basic", username: "bob", password: "pw" });
    assert.deepEqual(rc.impersonate, { user: "alice", groups: ["devs", "ops"], extra: { scopes: ["view"] } });
  });

  test("JSON is a kubeconfig too, and empty lists may be null (kubectl writes them so)", () => {
    const json = JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server: "http://127.0.0.1:8080" } }],
      users: null,
      contexts: [{ name: "x", context: { cluster: "c" } }],
      "current-context": "x",
    });
    const rc = load({ "/j": json }, ["/j"]);
    assert.equal(rc.server, "http://127.0.0.1:8080");
    assert.deepEqual(rc.auth, { type: "none" });
  });
});

describe("kubeconfig: several files, as $KUBECONFIG lists them", () => {
  const a = `clusters: [{name: shared, cluster: {server: "https://a:1"}}, {name: only-a, cluster: {server: "https://a:2"}}]
users: [{name: u, user: {token: from-a}}]
contexts: [{name: dev, context: {cluster: shared, user: u}}, {name: a2, context: {cluster: only-a, user: u}}]
`;
  const b = `clusters: [{name: shared, cluster: {server: "https://b:1"}}, {name: only-b, cluster: {server: "https://b:2"}}]
users: [{name: u, user: {token: from-b}}, {name: ub, user: {token: b-token}}]
contexts: [{name: dev, context: {cluster: only-b, user: ub}}, {name: prod, context: {cluster: only-b, user: ub}}]
current-context: prod
`;
  const c = `current-context: a2
`;
  const fs = { "/a": a, "/b": b, "/c": c };

  test("the first file to define a name wins; the first to set current-context wins", () => {
    const merged = mergeKubeconfigs(
      ["/a", "/b", "/c"].map((f) => parseKubeconfig(fs[f as keyof typeof fs], f)),
    );
    assert.equal(merged.currentContext, "prod");
    assert.deepEqual([...merged.contexts.keys()], ["dev", "a2", "prod"]);
    const prod = restConfigFromKubeconfig(merged);
    assert.equal(prod.server, "https://b:2");
    assert.deepEqual(prod.auth, { type: "token", token: "b-token" });
    assert.equal(prod.source, "kubeconfig /a:/b:/c (context prod)");
    const dev = restConfigFromKubeconfig(merged, { context: "dev" });
    assert.equal(dev.server, "https://a:1");
    assert.deepEqual(dev.auth, { type: "token", token: "from-a" });
  });

  test("current-context from a later file when earlier ones set none", () => {
    assert.equal(load(fs, ["/a", "/c"]).server, "https://a:2");
  });
});

describe("kubeconfig: what cannot be used says why and what to do", () => {
  test("an unknown --context lists the contexts there are", () => {
    rejects(
      () => load({ "/t/kubeconfig": harness }, ["/t/kubeconfig"], "prod"),
      /^--context prod: no such context in kubeconfig \/t\/kubeconfig\. Contexts: crossrole-local\.$/,
    );
  });

  test("no current-context: pick one with --context", () => {
    rejects(
      () => load({ "/k": harness.replace(/current-context: .*/, "") }, ["/k"]),
      /kubeconfig \/k sets no current-context; pick one with --context \(contexts: crossrole-local\)/,
    );
  });

  test("a current-context that is not defined", () => {
    rejects(
      () => load({ "/k": harness.replace(/current-context: .*/, "current-context: gone") }, ["/k"]),
      /current-context gone is not defined in it; pick one with --context/,
    );
  });

  test("a context naming a cluster or user that is not defined", () => {
    rejects(
      () => load({ "/k": harness.replace("{cluster: crossrole-local,", "{cluster: nope,") }, ["/k"]),
      /context crossrole-local names cluster nope, which is not defined/,
    );
    rejects(
      () => load({ "/k": harness.replace("user: admin}", "user: nobody}") }, ["/k"]),
      /context crossrole-local names user nobody, which is not defined/,
    );
  });

  test("a cluster without a server, or with one that is not a URL", () => {
    rejects(
      () => load({ "/k": harness.replace(/server: .*/, "server: ''") }, ["/k"]),
      /cluster crossrole-local has no server/,
    );
    rejects(
      () => load({ "/k": harness.replace(/server: .*/, "server: ftp://h:21") }, ["/k"]),
      /server ftp:\/\/h:21 is not an http\(s\) URL/,
    );
    // Without a scheme it is https, as client-go reads it.
    assert.equal(
      load({ "/k": harness.replace(/server: .*/, "server: 127.0.0.1:6443") }, ["/k"]).server,
      "https://127.0.0.1:6443",
    );
  });

  test("auth-provider and proxy-url are refused with the fix", () => {
    rejects(
      () => load({ "/k": harness.replace("token: abc123", "auth-provider: {name: gcp}") }, ["/k"]),
      /user admin: auth-provider gcp is not supported .* use the provider's exec credential plugin/,
    );
    rejects(
      () =>
        load({ "/k": harness.replace("server: https", "proxy-url: http://proxy:3128\n    server: https") }, [
          "/k",
        ]),
      /proxy-url is not supported/,
    );
  });

  test("an exec plugin with an unknown apiVersion", () => {
    rejects(
      () => load({ "/e": eks.replace("v1beta1", "v1alpha1"), "/certs/eks-ca.crt": caPEM }, ["/e"]),
      /exec apiVersion client\.authentication\.k8s\.io\/v1alpha1 is not supported/,
    );
  });

  test("not YAML, or not a mapping, or an unreadable file", () => {
    rejects(() => load({ "/k": "clusters: [" }, ["/k"]), /^kubeconfig \/k: not valid YAML/);
    rejects(() => load({ "/k": "- a\n- b\n" }, ["/k"]), /^kubeconfig \/k: not a kubeconfig/);
    rejects(() => load({}, ["/none"]), /^kubeconfig \/none: cannot read it \(ENOENT\)\.$/);
    rejects(
      () => load({ "/k": harness.replace("token: abc123", "token: [1]") }, ["/k"]),
      /kubeconfig \/k: user admin: token must be a string/,
    );
  });

  test("a client certificate without its key", () => {
    rejects(
      () => load({ "/k": kind.replace(/client-key-data: .*/, "") }, ["/k"]),
      /user kind-kind: a client certificate needs its key/,
    );
  });
});

describe("in-cluster configuration", () => {
  const dir = "/var/run/secrets/kubernetes.io/serviceaccount";
  const mount = { [`${dir}/token`]: "tok", [`${dir}/ca.crt`]: caPEM, [`${dir}/namespace`]: "ack-system\n" };

  test("server from the service variables, CA and namespace from the mount, the token re-read from its file", () => {
    const rc = inClusterConfig({
      env: { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" },
      readFile: files(mount),
    });
    assert.deepEqual(rc, {
      server: "https://10.96.0.1:443",
      tls: { ca: caPEM },
      auth: { type: "tokenFile", path: `${dir}/token` },
      namespace: "ack-system",
      source: `in-cluster service account (${dir})`,
    });
  });

  test("an IPv6 service address is bracketed", () => {
    const rc = inClusterConfig({
      env: { KUBERNETES_SERVICE_HOST: "fd00:10:96::1", KUBERNETES_SERVICE_PORT: "443" },
      readFile: files(mount),
    });
    assert.equal(rc.server, "https://[fd00:10:96::1]:443");
    assert.equal(new URL(rc.server).hostname, "[fd00:10:96::1]");
  });

  test("no token mounted, or not in a Pod, says so", () => {
    rejects(
      () =>
        inClusterConfig({
          env: { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" },
          readFile: files({}),
        }),
      /token cannot be read \(ENOENT\); is the ServiceAccount token mounted/,
    );
    rejects(() => inClusterConfig({ env: {}, readFile: files(mount) }), /Not running in a cluster/);
  });
});

describe("RestConfig helpers", () => {
  test("withToken keeps the server and CA and drops the client certificate and impersonation", () => {
    const rc = load({ "/k": kind }, ["/k"]);
    const as = withToken({ ...rc, impersonate: { user: "x", groups: [], extra: {} } }, "t0k");
    assert.deepEqual(as.tls, { ca: caPEM });
    assert.deepEqual(as.auth, { type: "token", token: "t0k" });
    assert.equal(as.impersonate, undefined);
    assert.equal(withServer(rc, "https://127.0.0.1:9/").server, "https://127.0.0.1:9");
  });
});
