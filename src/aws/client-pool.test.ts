import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import { AwsClientPool } from "./client-pool.ts";

const credentials = async () => ({ accessKeyId: "AKIA", secretAccessKey: "s" });
const key = { region: "eu-west-1", endpoint: null, credentialsKey: "k1" };

describe("AwsClientPool", () => {
  test("one client per (service, region, endpoint, credentials key)", () => {
    const pool = new AwsClientPool();
    try {
      const sqs = pool.sqs(key, credentials);
      assert.equal(pool.sqs({ ...key }, credentials), sqs);
      assert.notEqual(pool.sqs({ ...key, credentialsKey: "k2" }, credentials), sqs);
      assert.notEqual(pool.sqs({ ...key, region: "us-east-1" }, credentials), sqs);
      assert.notEqual(pool.sqs({ ...key, endpoint: "http://127.0.0.1:1" }, credentials), sqs);
      assert.notEqual(pool.s3(key, credentials), sqs as unknown);
      assert.equal(pool.size, 5);
    } finally {
      pool.close();
    }
  });

  test("STS goes to the regional endpoint, never the global one, and the SDK does not retry it", async () => {
    const pool = new AwsClientPool();
    try {
      const sts = pool.sts(key, credentials);
      // The client's own setting, fed to the client's own endpoint rules.
      const useGlobal = sts.config.useGlobalEndpoint;
      assert.equal(typeof useGlobal === "function" ? await useGlobal() : useGlobal, false);
      const resolved = sts.config.endpointProvider({
        Region: "eu-west-1",
        UseGlobalEndpoint: false,
        UseFIPS: false,
        UseDualStack: false,
      });
      assert.equal(resolved.url.href, "https://sts.eu-west-1.amazonaws.com/");
      assert.equal(await sts.config.maxAttempts(), 1);
    } finally {
      pool.close();
    }
  });

  test("S3 uses path-style addressing with an endpoint override", async () => {
    const pool = new AwsClientPool();
    try {
      assert.equal(
        pool.s3({ ...key, endpoint: "http://127.0.0.1:1" }, credentials).config.forcePathStyle,
        true,
      );
      assert.equal(pool.s3(key, credentials).config.forcePathStyle, false);
    } finally {
      pool.close();
    }
  });

  test("beyond its bound the least recently used client is destroyed", () => {
    const pool = new AwsClientPool({ maxClients: 2 });
    try {
      const first = pool.sqs({ ...key, credentialsKey: "a" }, credentials);
      let destroyed = false;
      const destroy = first.destroy.bind(first);
      first.destroy = () => {
        destroyed = true;
        destroy();
      };
      pool.sqs({ ...key, credentialsKey: "b" }, credentials);
      pool.sqs({ ...key, credentialsKey: "c" }, credentials);
      assert.equal(pool.size, 2);
      assert.equal(destroyed, true);
    } finally {
      pool.close();
    }
  });

  test("a call AWS never answers fails with a timeout instead of holding the caller forever", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const pool = new AwsClientPool({ requestTimeoutMs: 100 });
    try {
      const s3 = pool.s3({ ...key, endpoint }, credentials);
      await assert.rejects(s3.send(new HeadBucketCommand({ Bucket: "b" })), { name: "TimeoutError" });
    } finally {
      pool.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});
