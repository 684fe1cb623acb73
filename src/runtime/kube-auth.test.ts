// Per-request credentials: static, token file (re-read every minute, kept through a failed
// re-read), exec plugins (cached until they expire, re-run after a 401), impersonation.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Clock } from "../toolkit/clock.ts";
import { runExecPlugin } from "./exec-credential.ts";
import { createAuthenticator } from "./kube-auth.ts";
import type { ExecConfig, RestConfig } from "./rest-config.ts";

function handClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    setTimeout: () => ({}),
    clearTimeout: () => {},
    advance(ms) {
      t += ms;
    },
  };
}

const base = { server: "https://k:6443", tls: {}, source: "test" } as const;

describe("kubeAuth", () => {
  test("a static token and impersonation headers", async () => {
    const auth = createAuthenticator({
      ...base,
      auth: { type: "token", token: "abc" },
      impersonate: { user: "alice", groups: ["g1", "g2"], extra: { "reason/x": ["y"] } },
    });
    assert.deepEqual((await auth.credentials()).headers, {
      "impersonate-user": "alice",
      "impersonate-group": ["g1", "g2"],
      "impersonate-extra-reason%2Fx": ["y"],
      authorization: "Bearer abc",
    });
  });

  test("basic auth", async () => {
    const auth = createAuthenticator({ ...base, auth: { type: "basic", username: "u", password: "p" } });
    assert.equal((await auth.credentials()).headers["authorization"], `Basic ${btoa("u:p")}`);
  });

  test("a token file is read once a minute, survives a failed re-read, and is re-read after a 401", async () => {
    const clock = handClock();
    let content: string | Error = "one\n";
    let reads = 0;
    const auth = createAuthenticator(
      { ...base, auth: { type: "tokenFile", path: "/sa/token" } },
      {
        clock,
        readTextFile: async () => {
          reads++;
          if (content instanceof Error) throw content;
          return content;
        },
      },
    );
    const bearer = async () => (await auth.credentials()).headers["authorization"];
    assert.equal(await bearer(), "Bearer one");
    content = "two";
    clock.advance(59_000);
    assert.equal(await bearer(), "Bearer one");
    assert.equal(reads, 1);
    clock.advance(1_000);
    assert.equal(await bearer(), "Bearer two");
    assert.equal(reads, 2);
    // Mid-rotation the file may be briefly missing: keep the token we have.
    content = Object.assign(new Error("gone"), { code: "ENOENT" });
    clock.advance(60_000);
    assert.equal(await bearer(), "Bearer two");
    content = "three";
    auth.unauthorized();
    assert.equal(await bearer(), "Bearer three");
  });

  test("an unreadable token file at first use names the file", async () => {
    const auth = createAuthenticator(
      { ...base, auth: { type: "tokenFile", path: "/sa/token" } },
      { readTextFile: () => Promise.reject(Object.assign(new Error("x"), { code: "EACCES" })) },
    );
    await assert.rejects(auth.credentials(), /cannot read the bearer token file \/sa\/token \(EACCES\)/);
  });

  test("an exec plugin runs once until its credential expires, and again after a 401", async () => {
    const clock = handClock();
    let runs = 0;
    const exec: ExecConfig = {
      command: "get-token",
      args: [],
      env: [],
      apiVersion: "client.authentication.k8s.io/v1",
      provideClusterInfo: false,
    };
    const auth = createAuthenticator(
      { ...base, auth: { type: "exec", exec } },
      {
        clock,
        runExec: async () => {
          runs++;
          return { token: `t${runs}`, expiresAt: clock.now() + 600_000 };
        },
      },
    );
    const bearer = async () => (await auth.credentials()).headers["authorization"];
    assert.deepEqual(await Promise.all([bearer(), bearer()]), ["Bearer t1", "Bearer t1"]);
    clock.advance(590_000);
    assert.equal(await bearer(), "Bearer t1");
    clock.advance(6_000);
    assert.equal(await bearer(), "Bearer t2");
    auth.unauthorized();
    assert.equal(await bearer(), "Bearer t3");
    assert.equal(runs, 3);
  });
});

describe("exec credential plugins", () => {
  const cluster: Pick<RestConfig, "server" | "tls"> = { server: "https://k:6443", tls: { ca: "PEM" } };
  const plugin = (script: string, extra: Partial<ExecConfig> = {}): ExecConfig => ({
    command: process.execPath,
    args: ["-e", script],
    env: [{ name: "PLUGIN_ENV", value: "from-kubeconfig" }],
    apiVersion: "client.authentication.k8s.io/v1",
    provideClusterInfo: true,
    ...extra,
  });

  test("gets KUBERNETES_EXEC_INFO and its env, and returns the token and expiry it prints", async () => {
    const script = `
      const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
      process.stdout.write(JSON.stringify({
        apiVersion: info.apiVersion, kind: "ExecCredential",
        status: {
          token: [info.spec.interactive, info.spec.cluster.server, info.spec.cluster["certificate-authority-data"], process.env.PLUGIN_ENV].join("|"),
          expirationTimestamp: "2030-01-01T00:00:00Z",
        },
      }));`;
    const cred = await runExecPlugin(plugin(script), cluster, {});
    assert.deepEqual(cred, {
      token: `false|https://k:6443|${btoa("PEM")}|from-kubeconfig`,
      expiresAt: Date.parse("2030-01-01T00:00:00Z"),
    });
  });

  test("a plugin that fails, is missing or prints nonsense says so", async () => {
    await assert.rejects(
      runExecPlugin(
        plugin("console.error('login required: run aws sso login'); process.exit(3)"),
        cluster,
        {},
      ),
      /exec credential plugin .* failed .*login required: run aws sso login/s,
    );
    await assert.rejects(
      runExecPlugin(
        { ...plugin(""), command: "crossrole-no-such-plugin", installHint: "Install it from example.com." },
        cluster,
        { PATH: "/nonexistent" },
      ),
      /exec credential plugin crossrole-no-such-plugin: command not found\. Install it from example\.com\./,
    );
    await assert.rejects(
      runExecPlugin(plugin("console.log('hi')"), cluster, {}),
      /printed no ExecCredential JSON/,
    );
  });
});
