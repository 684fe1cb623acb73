// What status may hint of an ID AWS assigned: only something shaped like the kind's IDs is ever
// sent to AWS (a key ARN would name a key of another account), and a missing or malformed value
// is no hint. The search that follows is tested against the emulator (test/e2e/kms-key.test.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyService } from "../../services/kms/key.ts";
import { recordedId } from "./locate.ts";

describe("recordedId: status's ID taken as a hint only when it looks like one", () => {
  const assigned = keyService.assigned;
  assert.ok(assigned);
  const id = "1234abcd-12ab-34cd-56ef-1234567890ab";

  test("a key ID, or a multi-Region key's", () => {
    assert.equal(recordedId({ keyID: id }, assigned), id);
    const mrk = "mrk-1234abcd12ab34cd56ef1234567890ab";
    assert.equal(recordedId({ keyID: mrk }, assigned), mrk);
  });

  test("an ARN, an alias, another account's key or junk is no hint: never sent to AWS", () => {
    for (const keyID of [
      `arn:aws:kms:us-east-1:222222222222:key/${id}`,
      "alias/shared",
      `${id} `,
      `${id}/x`,
      "",
      42,
      null,
    ]) {
      assert.equal(recordedId({ keyID }, assigned), undefined, JSON.stringify(keyID));
    }
    assert.equal(recordedId(undefined, assigned), undefined);
    assert.equal(recordedId({}, assigned), undefined);
  });
});
