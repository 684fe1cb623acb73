// The README's first command, the main job (scripts/main.ts --once): it brings up its own stack,
// applies Alice's story, and for every resource of a served kind says where it landed as the
// emulator answers. It must finish (exit 0) with each of her resources in the account the story
// puts it in — the core Secret holding her database's password is no Secrets Manager Secret, and
// the objects AWS names (her key, her database's security group) are found by their IDs.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);

test("the main job runs Alice's story to the end, each resource in the account the story puts it in", async () => {
  const { stdout } = await run(process.execPath, [join(root, "scripts/main.ts"), "--once"], {
    cwd: root,
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const landed = (resource: string) => {
    const at = stdout.indexOf(`\n${resource}\n`);
    assert.ok(at >= 0, `${resource} is reported:\n${stdout}`);
    return /in AWS: +(.*)/.exec(stdout.slice(at))?.[1] ?? "";
  };
  const story: [string, string][] = [
    ["Bucket shop/shop-assets", "account 111111111111"],
    ["Bucket shop/shop-billing-exports", "account 222222222222"],
    ["Key shop/shop-data", "account 111111111111"],
    ["Queue shop/shop-orders", "account 111111111111"],
    ["Bucket sandbox/sandbox-billing-exports", "in no account"],
    ["DBSubnetGroup shop/shop-db-subnets", "account 222222222222"],
    ["SecurityGroup shop/shop-db", "account 222222222222"],
    ["DBInstance shop/shop-db", "account 222222222222"],
    ["Policy shop/shop-app-logs", "account 111111111111"],
    ["Role shop/shop-app", "account 111111111111"],
  ];
  for (const [resource, where] of story)
    assert.ok(landed(resource).startsWith(where), `${resource}: ${landed(resource)}`);
  assert.match(
    stdout,
    /network: +DB subnet group shop-db-subnets in vpc-\w+ over .*, behind security group sg-\w+/,
  );
  assert.doesNotMatch(stdout, /^Secret shop\/shop-db-master$/m, "a core Secret is not a served Secret");
  assert.match(stdout, /^done in [\d.]+ s\.$/m);
});
