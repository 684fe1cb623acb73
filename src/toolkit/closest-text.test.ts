import assert from "node:assert/strict";
import { test } from "node:test";
import { closestText } from "./closest-text.ts";

const services = ["dynamodb", "rds", "s3", "sns", "sqs"];

test("a word one or two edits from exactly one candidate names it", () => {
  assert.equal(closestText("sqss", services), "sqs");
  assert.equal(closestText("dynamo", services), "dynamodb");
  assert.equal(closestText("rdss", services), "rds");
});

test("nothing near enough, or two candidates equally near, is no suggestion", () => {
  assert.equal(closestText("ec2", services), null);
  assert.equal(closestText("lambda", services), null);
  // One substitution from both s3 and sns.
  assert.equal(closestText("sn3", services), null);
  assert.equal(closestText("sq", services), null);
  assert.equal(closestText("anything", []), null);
});

test("the candidate itself is distance 0, and maxDistance bounds the search", () => {
  assert.equal(closestText("sqs", services), "sqs");
  assert.equal(closestText("dynamo", services, 1), null);
});
