import assert from "node:assert/strict";
import { test } from "node:test";
import { AwsClientPool } from "./client-pool.ts";
import { stsClientFactory } from "./sts.ts";

test("STS goes to the regional endpoint, never the global one, and the SDK does not retry it", async () => {
  const pool = new AwsClientPool();
  try {
    const sts = pool.client(stsClientFactory, { region: "eu-west-1", endpoint: null, credentialsKey: "k" });
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
