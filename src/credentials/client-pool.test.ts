import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { FencedError, isFencedError, withFence } from "../runtime/fence.ts";
import { AwsClientPool, type BaseClientConfig, type ClientFactory } from "./client-pool.ts";

const credentials = async () => ({ accessKeyId: "AKIA", secretAccessKey: "s" });
const key = { region: "eu-west-1", endpoint: null, credentialsKey: "k1" };

/** A stand-in client class: remembers the config it was built with and whether it was destroyed. */
class FakeClient {
  readonly config: BaseClientConfig;
  destroyed = false;
  constructor(config: BaseClientConfig) {
    this.config = config;
  }
  destroy(): void {
    this.destroyed = true;
  }
}
const fakeFactory = (name: string): ClientFactory<FakeClient> => ({
  name,
  create: (config) => new FakeClient(config),
});
const queues = fakeFactory("queues");
const topics = fakeFactory("topics");

describe("AwsClientPool", () => {
  test("one client per (client class, region, endpoint, credentials key)", () => {
    const pool = new AwsClientPool();
    try {
      const a = pool.client(queues, key, credentials);
      assert.equal(pool.client(queues, { ...key }, credentials), a);
      assert.notEqual(pool.client(queues, { ...key, credentialsKey: "k2" }, credentials), a);
      assert.notEqual(pool.client(queues, { ...key, region: "us-east-1" }, credentials), a);
      assert.notEqual(pool.client(queues, { ...key, endpoint: "http://127.0.0.1:1" }, credentials), a);
      assert.notEqual(pool.client(topics, key, credentials), a);
      assert.equal(pool.size, 5);
    } finally {
      pool.close();
    }
  });

  test("the factory gets the region, the endpoint override, the credentials and the timeouts", () => {
    const pool = new AwsClientPool({ connectionTimeoutMs: 100, requestTimeoutMs: 200 });
    try {
      const c = pool.client(queues, { ...key, endpoint: "http://127.0.0.1:1" }, credentials).config;
      assert.equal(c.region, "eu-west-1");
      assert.equal(c.endpoint, "http://127.0.0.1:1");
      assert.equal(c.credentials, credentials);
      assert.deepEqual(c.requestHandler, {
        connectionTimeout: 100,
        requestTimeout: 200,
        throwOnRequestTimeout: true,
      });
      const unsigned = pool.client(queues, { ...key, credentialsKey: "unsigned" }).config;
      assert.equal("endpoint" in unsigned, false, "no endpoint override: the SDK's regional endpoint");
      assert.equal("credentials" in unsigned, false);
    } finally {
      pool.close();
    }
  });

  test("beyond its bound the least recently used client is destroyed", () => {
    const pool = new AwsClientPool({ maxClients: 2 });
    try {
      const first = pool.client(queues, { ...key, credentialsKey: "a" }, credentials);
      pool.client(queues, { ...key, credentialsKey: "b" }, credentials);
      pool.client(queues, { ...key, credentialsKey: "c" }, credentials);
      assert.equal(pool.size, 2);
      assert.equal(first.destroyed, true);
    } finally {
      pool.close();
    }
  });

  test("a call AWS never answers fails with a timeout instead of holding the caller forever", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const pool = new AwsClientPool({ requestTimeoutMs: 100 });
    const s3: ClientFactory<S3Client> = {
      name: "s3",
      create: (c) => new S3Client({ ...c, forcePathStyle: true }),
    };
    try {
      const client = pool.client(s3, { ...key, endpoint }, credentials);
      await assert.rejects(client.send(new HeadBucketCommand({ Bucket: "b" })), { name: "TimeoutError" });
    } finally {
      pool.close();
      silent.closeAllConnections();
      silent.close();
    }
  });

  test("each attempt of a call asks the reconcile's fence: a retry after the replica was fenced is never sent", async () => {
    let attempts = 0;
    let fenced = false;
    // AWS answers the first attempt 503 (retryable); the replica is fenced meanwhile.
    const flaky = createServer((_req, res) => {
      attempts += 1;
      fenced = true;
      res.writeHead(503, { "content-type": "application/xml" });
      res.end("<Error><Code>SlowDown</Code><Message>slow down</Message></Error>");
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    const pool = new AwsClientPool();
    const s3: ClientFactory<S3Client> = {
      name: "s3",
      create: (c) => new S3Client({ ...c, forcePathStyle: true, retryMode: "standard", maxAttempts: 3 }),
    };
    const fence = {
      check: () => {
        if (fenced) throw new FencedError("fenced: this replica may no longer act on ns/b");
      },
    };
    try {
      const client = pool.client(s3, { ...key, endpoint }, credentials);
      await assert.rejects(
        withFence(fence, () => client.send(new HeadBucketCommand({ Bucket: "b" }))),
        (err) => isFencedError(err),
      );
      assert.equal(attempts, 1, "the SDK's retry was refused before it was sent");
      // Outside a reconcile: no fence, the SDK retries as usual.
      attempts = 0;
      await assert.rejects(client.send(new HeadBucketCommand({ Bucket: "b" })));
      assert.equal(attempts, 3);
    } finally {
      pool.close();
      flaky.closeAllConnections();
      flaky.close();
    }
  });
});
