import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { controllerKeyFrom } from "./controller-key.ts";

describe("controllerKeyFrom: MACs only the key's holder can make", () => {
  const key = controllerKeyFrom(Buffer.alloc(32, 1));

  test("the same fields verify; any change, another key or another split does not", () => {
    const mac = key.mac(["a", "bc"]);
    assert.equal(key.verify(["a", "bc"], mac), true);
    assert.equal(key.verify(["ab", "c"], mac), false, "fields are length-prefixed");
    assert.equal(key.verify(["a", "bd"], mac), false);
    assert.equal(controllerKeyFrom(Buffer.alloc(32, 2)).verify(["a", "bc"], mac), false);
    assert.equal(key.verify(["a", "bc"], ""), false);
    assert.equal(key.verify(["a", "bc"], `${mac}x`), false);
  });
});
