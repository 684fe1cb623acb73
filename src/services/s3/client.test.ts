import assert from "node:assert/strict";
import { test } from "node:test";
import { AwsClientPool } from "../../credentials/client-pool.ts";
import { s3ClientFactory } from "./client.ts";

test("S3 uses path-style addressing with an endpoint override, virtual-hosted otherwise", () => {
  const pool = new AwsClientPool();
  const key = { region: "eu-west-1", endpoint: null, credentialsKey: "k" };
  try {
    assert.equal(
      pool.client(s3ClientFactory, { ...key, endpoint: "http://127.0.0.1:1" }).config.forcePathStyle,
      true,
    );
    assert.equal(pool.client(s3ClientFactory, key).config.forcePathStyle, false);
  } finally {
    pool.close();
  }
});
