// The default region as a Pod's environment gives it: --aws-region, else AWS_REGION, else the
// AWS CLI's AWS_DEFAULT_REGION.
import assert from "node:assert/strict";
import { test } from "node:test";
import { settingsFromFlags } from "./settings-flags.ts";

test("default region: --aws-region > AWS_REGION > AWS_DEFAULT_REGION", () => {
  const region = (values: Record<string, string>, env: Record<string, string>) =>
    settingsFromFlags(values, env).defaultRegion;
  assert.equal(region({}, { AWS_DEFAULT_REGION: "eu-north-1" }), "eu-north-1");
  assert.equal(region({}, { AWS_DEFAULT_REGION: "eu-north-1", AWS_REGION: "eu-west-3" }), "eu-west-3");
  assert.equal(
    region({ "aws-region": "ap-south-1" }, { AWS_DEFAULT_REGION: "eu-north-1", AWS_REGION: "eu-west-3" }),
    "ap-south-1",
  );
  assert.equal(
    region({}, { AWS_DEFAULT_REGION: "", AWS_REGION: "" }),
    settingsFromFlags({}, {}).defaultRegion,
  );
});
