import assert from "node:assert/strict";
import { test } from "node:test";
import {
  awsRoleIdentitySchema,
  awsServiceAccountIdentitySchema,
  awsStaticIdentitySchema,
} from "./identities.ts";
import { identityKinds, isIdentityKind } from "./identity-ref.ts";

const meta = (name: string) => ({ apiVersion: "identity.crossrole.dev/v1alpha1", metadata: { name } });

test("AWSServiceAccountIdentity: audiences default to sts.amazonaws.com", () => {
  const sa = awsServiceAccountIdentitySchema.parse({
    ...meta("web"),
    kind: "AWSServiceAccountIdentity",
    spec: { roleARN: "arn:aws:iam::111111111111:role/Web", serviceAccountName: "web" },
  });
  assert.deepEqual(sa.spec.audiences, ["sts.amazonaws.com"]);
});

test("allowedNamespaces keeps absent, null, {} and {list: []} apart", () => {
  const parse = (spec: Record<string, unknown>) =>
    awsStaticIdentitySchema.parse({
      ...meta("s"),
      kind: "AWSStaticIdentity",
      spec: { secretRef: "keys", ...spec },
    }).spec.allowedNamespaces;
  assert.equal(parse({}), undefined);
  assert.equal(parse({ allowedNamespaces: null }), null);
  assert.deepEqual(parse({ allowedNamespaces: {} }), {});
  assert.deepEqual(parse({ allowedNamespaces: { list: [] } }), { list: [] });
  assert.deepEqual(parse({ allowedNamespaces: { list: null, selector: null } }), {
    list: null,
    selector: null,
  });
});

test("AWSRoleIdentity: a wrong kind or apiVersion says what to write", () => {
  const result = awsRoleIdentitySchema.safeParse({
    apiVersion: "identity.crossrole.dev/v1",
    kind: "AWSRoleIdentity",
    metadata: { name: "r" },
    spec: {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: "arn:aws:iam::111111111111:role/X",
    },
  });
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0]?.message, "apiVersion must be identity.crossrole.dev/v1alpha1");
});

test("identity kinds", () => {
  assert.deepEqual(identityKinds, [
    "AWSControllerIdentity",
    "AWSStaticIdentity",
    "AWSRoleIdentity",
    "AWSServiceAccountIdentity",
  ]);
  assert.equal(isIdentityKind("AWSRoleIdentity"), true);
  assert.equal(isIdentityKind("IAMRoleSelector"), false);
});
