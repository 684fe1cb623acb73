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
  test("a read naming the object in a member of the declaration's choice (CloudWatch Logs' name prefix): that member, for the groups read by it too", () => {
    const r = resolveRuntime(
      declaration({ read: { call: "DescribeRepositories", output: "repositories", by: "registryId" } }, [
        { set: "PutLifecyclePolicy", read: "DescribeRepositories", fields: { lifecyclePolicyText: {} } },
      ]),
      model,
    );
    assert.deepEqual(r.read.by, { member: "registryId", form: "scalar" });
    assert.equal(r.read.list, true, "its answer is a list: only the object of the resource's name is kept");
    assert.deepEqual(r.calls["DescribeRepositories"], { member: "registryId", form: "scalar" });
    assert.deepEqual(r.calls["PutLifecyclePolicy"], { member: "repositoryName", form: "scalar" });
  });
  test("a declared read member the call lacks, or a page its answer lacks, fails generation naming it", () => {
    assert.throws(
      () =>
        resolveRuntime(
          declaration({ read: { call: "DescribeRepositories", output: "repositories", by: "prefix" } }),
          model,
        ),
      /the read call DescribeRepositories takes no string or list of strings prefix \(runtime\.read\.by\)/,
    );
    assert.throws(
      () =>
        resolveRuntime(
          declaration({
            read: {
              call: "DescribeRepositories",
              output: "repositories",
              page: { input: "registryId", output: "nextToken" },
            },
          }),
          model,
        ),
      /the call DescribeRepositories answers no nextToken \(runtime\.read\.page\)/,
    );
  });
  test("a group read taking a member of the object's answer, or answering a field elsewhere: each checked against the model", () => {
    const group = (extra: object) => [
      {
        set: "PutLifecyclePolicy",
        read: "DescribeRepositories",
        fields: { lifecyclePolicyText: {} },
        ...extra,
      },
    ];
    const read = { call: "DescribeRepositories", output: "repositories" };
    assert.doesNotThrow(() =>
      resolveRuntime(
        declaration(
          { read },
          group({
            readInput: { registryId: "repositoryArn" },
            readAt: { lifecyclePolicyText: "repositories[0].repositoryArn" },
          }),
        ),
        model,
      ),
    );
    assert.throws(
      () =>
        resolveRuntime(declaration({ read }, group({ readInput: { versionId: "repositoryArn" } })), model),
      /the call DescribeRepositories takes no versionId \(readInput\)/,
    );
    assert.throws(
      () =>
        resolveRuntime(declaration({ read }, group({ readInput: { registryId: "defaultVersion" } })), model),
      /have no member defaultVersion \(readInput\.registryId\)/,
    );
    assert.throws(
      () =>
        resolveRuntime(
          declaration({ read }, group({ readAt: { lifecyclePolicyText: "policyVersion.document" } })),
          model,
        ),
      /the call DescribeRepositories answers no policyVersion \(readAt\.lifecyclePolicyText\)/,
    );
  });
  test("declared states must be a member of the answered objects", () => {
    assert.throws(
      () => resolveRuntime(declaration({ states: { member: "state", ready: ["ACTIVE"] } }), model),
      /have no member state \(runtime.states.member\)/,
    );
    assert.throws(
      () =>
        resolveRuntime(
          declaration({ states: { member: ["repositoryName", "state"], busy: ["CREATING"] } }),
          model,
        ),
      /have no member state \(runtime.states.member\)/,
      "each of several state members",
    );
  });

  test("members beside the object must be the read answer's; a path may then start at one", () => {
    const read = { call: "DescribeRepositories", output: "repositories" };
    assert.throws(
      () => resolveRuntime(declaration({ read: { ...read, beside: ["tags"] } }), model),
      /the read call DescribeRepositories answers no tags \(runtime.read.beside\)/,
    );
    assert.throws(
      () =>
        resolveRuntime(declaration({ read: { ...read, members: { repositoryName: "tags.name" } } }), model),
      /answers have no member tags/,
      "without beside, the object's own members only",
    );
  });
});

/** A model in the shapes of S3's: a read answering one bucket whole, a list naming none, S3 Control's tags. */
const op = (name: string, output = false) => ({
  name,
  input: { shape: `${name}Request` },
  ...(output ? { output: { shape: `${name}Output` } } : {}),
});
const struct = (members: Record<string, string>) => ({
  type: "structure" as const,
  members: Object.fromEntries(Object.entries(members).map(([m, shape]) => [m, { shape }])),
});
const s3Model: AwsModel = {
  service: "s3",
  apiVersion: "2006-03-01",
  operations: Object.fromEntries(
    [
      op("CreateBucket"),
      op("HeadBucket", true),
      op("DeleteBucket"),
      op("ListDirectoryBuckets", true),
      op("PutBucketTagging"),
      op("GetBucketTagging", true),
      op("DeleteBucketTagging"),
    ].map((o) => [o.name, o]),
  ),
  shapes: {
    Name: { type: "string" },
    Tags: { type: "list", member: { shape: "Tag" } },
    Tag: struct({ Key: "Name", Value: "Name" }),
    CreateBucketRequest: struct({ Bucket: "Name" }),
    HeadBucketRequest: struct({ Bucket: "Name" }),
    HeadBucketOutput: struct({ BucketRegion: "Name" }),
    DeleteBucketRequest: struct({ Bucket: "Name" }),
    ListDirectoryBucketsRequest: struct({ ContinuationToken: "Name" }),
    ListDirectoryBucketsOutput: struct({ Buckets: "Buckets", ContinuationToken: "Name" }),
    Buckets: { type: "list", member: { shape: "Listed" } },
    Listed: struct({ Name: "Name", BucketRegion: "Name" }),
    PutBucketTaggingRequest: struct({ Bucket: "Name", Tagging: "Name" }),
    GetBucketTaggingRequest: struct({ Bucket: "Name" }),
    GetBucketTaggingOutput: struct({ TagSet: "Tags" }),
    DeleteBucketTaggingRequest: struct({ Bucket: "Name" }),
  },
};
const controlModel = (tagResource: Record<string, string>): AwsModel => ({
  service: "s3control",
  apiVersion: "2018-08-20",
  operations: Object.fromEntries(
    [op("TagResource"), op("UntagResource"), op("ListTagsForResource", true)].map((o) => [o.name, o]),
  ),
  shapes: {
    Name: { type: "string" },
    Keys: { type: "list", member: { shape: "Name" } },
    TagResourceRequest: struct(tagResource),
    UntagResourceRequest: struct({ AccountId: "Name", ResourceArn: "Name", TagKeys: "Keys" }),
    ListTagsForResourceRequest: struct({ AccountId: "Name", ResourceArn: "Name" }),
    ListTagsForResourceOutput: struct({ Tags: "Name" }),
  },
});
const bucketLike = (
  runtime: Partial<RuntimeDeclaration> = {},
): KindDeclaration & { runtime: RuntimeDeclaration } => ({
  service: "s3",
  kind: "Bucket",
  identifier: "Bucket",
  terminalCodes: [],
  spec: [],
  create: "CreateBucket",
  groups: [
    {
      set: "PutBucketTagging",
      read: "GetBucketTagging",
      remove: "DeleteBucketTagging",
      fields: { Tagging: { form: "tags" } },
    },
  ],
  runtime: {
    service: "S3",
    noun: "bucket",
    read: { call: "HeadBucket" },
    arnScope: "global",
    arnResource: "",
    delete: "DeleteBucket",
    notFound: ["NoSuchBucket"],
    alreadyExists: [],
    tags: { resource: "Bucket", by: "identifier", replace: true, list: "TagSet" },
    ...runtime,
  },
});
const directory = {
  suffix: "--x-s3",
  groups: [],
  read: {
    call: "ListDirectoryBuckets",
    output: "Buckets",
    answerId: "Name",
    region: "BucketRegion",
    page: { input: "ContinuationToken", output: "ContinuationToken" },
  },
  arn: { service: "s3express", resource: "bucket/" },
  tags: {
    service: "s3control",
    read: "ListTagsForResource",
    set: "TagResource",
    remove: "UntagResource",
    resource: "ResourceArn",
    account: "AccountId",
    list: "Tags",
    keys: "TagKeys",
  },
};

describe("resolveRuntime: S3's shapes", () => {
  test("a read answering the one object named, whole: no list and no identifier to match; tags named as the object", () => {
    const r = resolveRuntime(bucketLike(), s3Model);
    assert.deepEqual(r.read, {
      call: "HeadBucket",
      by: { member: "Bucket", form: "scalar" },
      answers: "",
      list: false,
      id: "",
      whole: true,
    });
    assert.deepEqual(r.calls["PutBucketTagging"], { member: "Bucket", form: "scalar" });
  });
  test("a variant's read lists objects without naming one, paged, and each is told by its Name", () => {
    const tagging = { AccountId: "Name", ResourceArn: "Name", Tags: "Name" };
    const r = resolveRuntime(bucketLike({ variants: { directory } }), s3Model, () => controlModel(tagging));
    assert.deepEqual(r.variants?.["directory"]?.read, {
      call: "ListDirectoryBuckets",
      by: { member: "", form: "none" },
      answers: "Buckets",
      list: true,
      id: "Name",
      page: { input: "ContinuationToken", output: "ContinuationToken" },
    });
  });
  test("a variant's tag call that does not take the account fails generation, naming the call", () => {
    assert.throws(
      () =>
        resolveRuntime(bucketLike({ variants: { directory } }), s3Model, () =>
          controlModel({ ResourceArn: "Name", Tags: "Name" }),
        ),
      /s3control's TagResource takes no AccountId \(variants\.directory\.tags\)/,
    );
  });
  test("a variant's listed objects without the declared identifier member fail generation", () => {
    assert.throws(
      () =>
        resolveRuntime(
          bucketLike({
            variants: { directory: { ...directory, read: { ...directory.read, answerId: "Id" } } },
          }),
          s3Model,
        ),
      /the objects ListDirectoryBuckets answers in Buckets have no member Id/,
    );
  });
  test("a read after the create that skips the object's read needs an ARN crossrole composes", () => {
    const { arnScope: _, ...regionalRead } = bucketLike({
      afterCreate: { read: [] },
      arn: "BucketArn",
    }).runtime;
    assert.throws(
      () => resolveRuntime({ ...bucketLike(), runtime: regionalRead }, s3Model),
      /runtime\.afterCreate needs an ARN crossrole composes/,
    );
  });
  test("tags removed by key need the keys member, unless the set call replaces them whole", () => {
    assert.throws(
      () =>
        resolveRuntime(
          bucketLike({ tags: { resource: "Bucket", by: "identifier", list: "TagSet" } }),
          s3Model,
        ),
      /runtime\.tags\.keys is needed unless tags\.replace/,
    );
  });
});
