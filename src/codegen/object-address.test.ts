import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ecrLikeDeclaration } from "../../test/support/ecr-like-kind.ts";
import type { AwsModel } from "./aws-model.ts";
import type { KindDeclaration, RuntimeDeclaration } from "./declaration.ts";
import { addressIn, resolveRuntime } from "./object-address.ts";

/** A model in the shapes of ECR's (a list of names) and RDS's (the name itself) calls. */
const model: AwsModel = {
  service: "ecr",
  apiVersion: "2015-09-21",
  operations: {
    CreateRepository: { name: "CreateRepository", input: { shape: "CreateRepositoryRequest" } },
    DescribeRepositories: {
      name: "DescribeRepositories",
      input: { shape: "DescribeRepositoriesRequest" },
      output: { shape: "DescribeRepositoriesResponse" },
    },
    DeleteRepository: { name: "DeleteRepository", input: { shape: "DeleteRepositoryRequest" } },
    PutLifecyclePolicy: { name: "PutLifecyclePolicy", input: { shape: "PutLifecyclePolicyRequest" } },
    ListImages: { name: "ListImages", input: { shape: "ListImagesRequest" } },
  },
  shapes: {
    RepositoryName: { type: "string" },
    RepositoryNameList: { type: "list", member: { shape: "RepositoryName" } },
    Arn: { type: "string" },
    CreateRepositoryRequest: { type: "structure", members: { repositoryName: { shape: "RepositoryName" } } },
    DescribeRepositoriesRequest: {
      type: "structure",
      members: { registryId: { shape: "Arn" }, repositoryNames: { shape: "RepositoryNameList" } },
    },
    DescribeRepositoriesResponse: {
      type: "structure",
      members: { repositories: { shape: "RepositoryList" } },
    },
    RepositoryList: { type: "list", member: { shape: "Repository" } },
    Repository: {
      type: "structure",
      members: { repositoryName: { shape: "RepositoryName" }, repositoryArn: { shape: "Arn" } },
    },
    DeleteRepositoryRequest: { type: "structure", members: { repositoryName: { shape: "RepositoryName" } } },
    PutLifecyclePolicyRequest: {
      type: "structure",
      members: { repositoryName: { shape: "RepositoryName" }, lifecyclePolicyText: { shape: "Arn" } },
    },
    ListImagesRequest: { type: "structure", members: { registryId: { shape: "Arn" } } },
  },
};
const identifier = { member: "repositoryName", shape: "RepositoryName" };

describe("addressIn: where a call takes the identifier, from the model", () => {
  test("the identifier's own member, as a scalar", () => {
    assert.deepEqual(addressIn(model, "DeleteRepository", identifier), {
      member: "repositoryName",
      form: "scalar",
    });
  });
  test("a list of identifiers: the list whose items have the identifier's shape (never a member the call lacks)", () => {
    assert.deepEqual(addressIn(model, "DescribeRepositories", identifier), {
      member: "repositoryNames",
      form: "list",
    });
  });
  test("a call that cannot name the object has no address", () => {
    assert.equal(addressIn(model, "ListImages", identifier), undefined);
  });
});

const declaration = (runtime: Partial<RuntimeDeclaration> = {}, groups: KindDeclaration["groups"] = []) =>
  ecrLikeDeclaration(groups, runtime);

describe("resolveRuntime", () => {
  test("the read by a list of names, its answer's objects named by repositoryName; delete and group calls by the name", () => {
    const r = resolveRuntime(
      declaration({}, [
        { set: "PutLifecyclePolicy", read: "DescribeRepositories", fields: { lifecyclePolicyText: {} } },
      ]),
      model,
    );
    assert.deepEqual(r.read, {
      call: "DescribeRepositories",
      by: { member: "repositoryNames", form: "list" },
      answers: "repositories",
      list: true,
      id: "repositoryName",
    });
    assert.deepEqual(r.delete, {
      call: "DeleteRepository",
      by: { member: "repositoryName", form: "scalar" },
    });
    assert.deepEqual(r.calls["PutLifecyclePolicy"], { member: "repositoryName", form: "scalar" });
    assert.equal(r.caseInsensitive, false);
  });
  test("a call the model gives no way to name the object fails generation, naming it and the fix", () => {
    assert.throws(
      () => resolveRuntime(declaration({ delete: "ListImages" }), model),
      /the delete call ListImages takes no repositoryName \(nor a list of them, nor one of runtime\.arnInput\).*hook/,
    );
  });
  test("answered objects without the identifier member: the declaration must say which member names them", () => {
    assert.throws(
      () =>
        resolveRuntime(
          declaration({ read: { call: "DescribeRepositories", output: "repositories", answerId: "name" } }),
          model,
        ),
      /have no member name: say which names them/,
    );
  });
  test("declared states must be a member of the answered objects", () => {
    assert.throws(
      () => resolveRuntime(declaration({ states: { member: "state", ready: ["ACTIVE"] } }), model),
      /have no member state \(runtime.states.member\)/,
    );
  });
});
