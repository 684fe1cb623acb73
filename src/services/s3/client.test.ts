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

test("S3 asks for no S3 Express zonal session: a directory bucket's calls are all regional (SigV4)", () => {
  const pool = new AwsClientPool();
  try {
    for (const endpoint of [null, "http://127.0.0.1:1"]) {
      const client = pool.client(s3ClientFactory, { region: "us-west-2", endpoint, credentialsKey: "k" });
      assert.equal(client.config.disableS3ExpressSessionAuth, true);
    }
  } finally {
    pool.close();
  }
});
