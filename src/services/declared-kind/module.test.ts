// What the generic runtime sends and concludes for a kind shaped like ACK's ECR Repository: each
// field group's own read and remove calls with its own "has none" codes (a lifecycle policy read
// by GetLifecyclePolicy, removed by DeleteLifecyclePolicy), the delete input hook (a force
// delete), and declared long-running states.
// The kind is written out here (pure logic over an in-process SDK: test/support/fake-sdk.ts).
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { z } from "zod";
import { ecrLikeDeclaration } from "../../../test/support/ecr-like-kind.ts";
import { awsError, type Fields, fakeSdk } from "../../../test/support/fake-sdk.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import { noSecrets } from "../service-module.ts";
import { declaredKindModule } from "./module.ts";
import type { DeclaredKindSource, GeneratedKind } from "./source.ts";

const kind: ResourceKind = {
  group: "ecr.services.k8s.aws",
  version: "v1alpha1",
  kind: "Repository",
  plural: "repositories",
  singular: "repository",
  service: "ecr",
};

const declaration = ecrLikeDeclaration([
  {
    set: "PutLifecyclePolicy",
    read: "GetLifecyclePolicy",
    remove: "DeleteLifecyclePolicy",
    notFound: ["LifecyclePolicyNotFound"],
    fields: { lifecyclePolicyText: { form: "document" } },
  },
  {
    set: "TagResource",
    remove: "UntagResource",
    read: "ListTagsForResource",
    fields: { tags: { form: "tags" } },
  },
]);

const generated: GeneratedKind = {
  fieldSchemas: {
    name: z.string(),
    lifecyclePolicy: z.string().optional(),
    tags: z.array(z.object({ key: z.string(), value: z.string().optional() })).optional(),
  },
  statusSchemas: {},
  codecs: {
    name: ["repositoryName", {}],
    lifecyclePolicy: ["lifecyclePolicyText", {}],
    tags: ["tags", { list: { object: { key: ["Key", {}], value: ["Value", {}] } } }],
  },
  statusCodecs: {},
  fieldGroups: {
    create: "CreateRepository",
    createFields: ["name", "tags"],
    groups: [
      {
        set: "PutLifecyclePolicy",
        read: "GetLifecyclePolicy",
        remove: "DeleteLifecyclePolicy",
        fields: [{ field: "lifecyclePolicy", absent: "none", form: "document" }],
      },
      {
        set: "TagResource",
        read: "ListTagsForResource",
        remove: "UntagResource",
        fields: [{ field: "tags", absent: "none", form: "tags" }],
      },
    ],
    notCompared: {},
  },
  declared: { identifier: "name", immutable: ["name"], lateInitialized: [] },
  references: [],
  runtime: {
    read: {
      call: "DescribeRepositories",
      by: { member: "repositoryNames", form: "list" },
      answers: "repositories",
      list: true,
      id: "repositoryName",
    },
    delete: { call: "DeleteRepository", by: { member: "repositoryName", form: "scalar" } },
    calls: {
      PutLifecyclePolicy: { member: "repositoryName", form: "scalar" },
      GetLifecyclePolicy: { member: "repositoryName", form: "scalar" },
      DeleteLifecyclePolicy: { member: "repositoryName", form: "scalar" },
    },
    caseInsensitive: false,
  },
};

const arn = "arn:aws:ecr:us-east-1:111111111111:repository/shop";
const policy = '{"rules":[{"rulePriority":1}]}';

/** The ECR side: one repository, with or without a lifecycle policy. */
function ecr(state: { policy?: string }) {
  return fakeSdk((call): Fields => {
    switch (call.operation) {
      case "DescribeRepositories":
        return { repositories: [{ repositoryName: "shop", repositoryArn: arn }] };
      case "ListTagsForResource":
        return { tags: [{ Key: "services.k8s.aws/owner-uid", Value: "u-1" }] };
      case "GetLifecyclePolicy":
        if (state.policy === undefined) throw awsError("LifecyclePolicyNotFoundException");
        return { repositoryName: "shop", lifecyclePolicyText: state.policy };
      case "DeleteLifecyclePolicy":
        if (state.policy === undefined) throw awsError("LifecyclePolicyNotFoundException");
        state.policy = undefined;
        return {};
      default:
        return {};
    }
  });
}

const source = (sdk: Readonly<Record<string, unknown>>, hooks: DeclaredKindSource<never>["hooks"] = {}) =>
  ({
    kind,
    declaration,
    generated,
    sdk,
    clientFactory: undefined as never,
    hooks,
  }) as DeclaredKindSource<never>;
const owner = { "services.k8s.aws/owner-uid": "u-1" };

describe("a field group with read and remove calls of its own", () => {
  let state: { policy?: string };
  beforeEach(() => {
    state = {};
  });

  test("its read answers 'none' with its own code: the field is absent, the object still found", async () => {
    const aws = ecr(state);
    const seen = await declaredKindModule(source(aws.sdk)).read(aws.client, { name: "shop" }, {});
    assert.equal(seen.found, true);
    assert.equal(seen.found && seen.observed.fields["lifecyclePolicy"], undefined);
    assert.deepEqual(
      aws.sent.map((c) => c.operation),
      ["DescribeRepositories", "ListTagsForResource", "GetLifecyclePolicy"],
    );
    assert.deepEqual(aws.sent[2]?.input, { repositoryName: "shop" });
  });

  test("read back by its own call, it compares with the spec: no drift when they agree", async () => {
    state.policy = policy;
    const aws = ecr(state);
    const module = declaredKindModule(source(aws.sdk));
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    assert.equal(seen.observed.fields["lifecyclePolicy"], policy);
    assert.deepEqual(module.diff({ name: "shop", lifecyclePolicy: policy }, seen.observed), []);
  });

  test("left out of the spec: removed by its remove call, never 'set' without the required text", async () => {
    state.policy = policy;
    const aws = ecr(state);
    const module = declaredKindModule(source(aws.sdk));
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    aws.sent.length = 0;
    const changed = await module.update(aws.client, { name: "shop" }, seen.observed, owner, {}, noSecrets);
    assert.deepEqual(changed, ["spec.lifecyclePolicy"]);
    assert.deepEqual(aws.sent, [{ operation: "DeleteLifecyclePolicy", input: { repositoryName: "shop" } }]);
    assert.equal(state.policy, undefined);
  });

  test("set: the group's set call with the whole group and the object's name", async () => {
    const aws = ecr(state);
    const module = declaredKindModule(source(aws.sdk));
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    aws.sent.length = 0;
    await module.update(
      aws.client,
      { name: "shop", lifecyclePolicy: policy },
      seen.observed,
      owner,
      {},
      noSecrets,
    );
    assert.deepEqual(aws.sent, [
      { operation: "PutLifecyclePolicy", input: { lifecyclePolicyText: policy, repositoryName: "shop" } },
    ]);
  });

  test("its 'none' code is its own: the object's delete still says not-found only for the object's code", async () => {
    const gone = fakeSdk((call) => {
      if (call.operation === "DeleteRepository") throw awsError("LifecyclePolicyNotFoundException");
      return {};
    });
    await assert.rejects(
      declaredKindModule(source(gone.sdk)).delete(gone.client, { name: "shop" }, {}, {}),
      /LifecyclePolicyNotFound/,
    );
    const missing = fakeSdk((call) => {
      if (call.operation === "DeleteRepository") throw awsError("RepositoryNotFoundException");
      return {};
    });
    assert.equal(
      await declaredKindModule(source(missing.sdk)).delete(missing.client, { name: "shop" }, {}, {}),
      "not-found",
    );
  });
});

describe("the delete input hook", () => {
  test("what the kind adds (a force delete, from an annotation) goes with the object's name", async () => {
    const aws = fakeSdk(() => ({}));
    const module = declaredKindModule(
      source(aws.sdk, {
        deleteInput: (_spec, annotations) =>
          annotations["ecr.services.k8s.aws/force-delete"] === "true" ? { force: true } : {},
      }),
    );
    await module.delete(aws.client, { name: "shop" }, {}, { "ecr.services.k8s.aws/force-delete": "true" });
    assert.deepEqual(aws.sent, [
      { operation: "DeleteRepository", input: { force: true, repositoryName: "shop" } },
    ]);
  });
});

describe("declared long-running states", () => {
  const withStates = (state: string) => {
    const aws = fakeSdk((call): Fields => {
      if (call.operation === "DescribeRepositories")
        return { repositories: [{ repositoryName: "shop", repositoryArn: arn, status: state }] };
      if (call.operation === "GetLifecyclePolicy") throw awsError("LifecyclePolicyNotFoundException");
      return {};
    });
    const states = { member: "status", ready: ["ACTIVE"], stuck: ["FAILED"], pollSeconds: 5 };
    const module = declaredKindModule({
      ...source(aws.sdk),
      generated: { ...generated, runtime: { ...generated.runtime, states } },
    });
    return { aws, module };
  };

  test("in a ready state it is written to as usual", async () => {
    const { aws, module } = withStates("ACTIVE");
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    assert.equal(module.busy?.(seen.observed), undefined);
  });

  test("in another state nothing is written: it says which state, and is looked at again soon", async () => {
    const { aws, module } = withStates("CREATING");
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    assert.deepEqual(module.busy?.(seen.observed), {
      reason: "status",
      message: "repository shop is CREATING in AWS; waiting until it is ACTIVE",
      requeueAfterMs: 5_000,
    });
  });

  test("a state AWS does not leave on its own says so, and is looked at less often", async () => {
    const { aws, module } = withStates("FAILED");
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    const busy = module.busy?.(seen.observed);
    assert.match(busy?.message ?? "", /FAILED in AWS, a state ECR does not leave on its own/);
    assert.equal(busy?.requeueAfterMs, 20_000);
  });
});

describe("the service's own error words (runtime.codeAliases, hints, throttled)", () => {
  const failing = (err: Error) =>
    fakeSdk((call) => {
      if (call.operation === "DescribeRepositories") throw err;
      return {};
    });
  const withWords = (sdk: Readonly<Record<string, unknown>>) =>
    declaredKindModule({
      ...source(sdk),
      declaration: ecrLikeDeclaration(declaration.groups, {
        codeAliases: { "AWS.ECR.NoRepository": "RepositoryNotFound" },
        throttled: ["SlowDown"],
        hints: {
          RepositoryPolicyBusy: ' (repository "{name}" is busy; retrying)',
          LimitExceeded: { "spec.lifecyclePolicy": " (too many rules in {field})", "": " (an ECR limit)" },
        },
      }),
    });

  test("an alias of a not-found code is not-found: the object is absent, never an error", async () => {
    const aws = failing(awsError("AWS.ECR.NoRepository"));
    assert.deepEqual(await withWords(aws.sdk).read(aws.client, { name: "shop" }, {}), { found: false });
  });

  test("a declared hint is worded with the object's name, and by field where the declaration says", () => {
    const module = withWords({});
    assert.match(
      module.describeError(awsError("RepositoryPolicyBusyException"), { name: "shop" }),
      /failed with RepositoryPolicyBusy: .* \(repository "shop" is busy; retrying\)$/,
    );
    assert.match(
      module.describeError(awsError("LimitExceededException"), { name: "shop" }),
      /\(an ECR limit\)$/,
    );
  });

  test("the service's own throttling code is retryable and says so", async () => {
    const aws = failing(awsError("SlowDown"));
    const err = await withWords(aws.sdk)
      .read(aws.client, { name: "shop" }, {})
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const module = withWords({});
    assert.equal(module.isTerminal(err), false);
    assert.match(module.describeError(err, { name: "shop" }), /throttl/i);
  });

  test("the error is the kind's (its name), and names the object apart from that", async () => {
    const aws = failing(awsError("SlowDown"));
    const err = await withWords(aws.sdk)
      .read(aws.client, { name: "shop" }, {})
      .then(
        () => assert.fail("no error"),
        (e: unknown) => e as Error & { object?: string; operation?: string },
      );
    assert.equal(err.name, "RepositoryError");
    assert.equal(err.object, "shop");
    assert.equal(err.operation, "DescribeRepositories");
  });
});

describe("group reads at once (runtime.read.groupsAtOnce)", () => {
  const atOnce = (sdk: Readonly<Record<string, unknown>>) =>
    declaredKindModule({
      ...source(sdk),
      declaration: ecrLikeDeclaration(declaration.groups, {
        read: { ...declaration.runtime.read, groupsAtOnce: true },
      }),
    });

  // One after another, the first read would wait for the second forever: the time limit says so.
  test("the tags and each group's own read are all in flight before any is answered", {
    timeout: 5_000,
  }, async () => {
    const held: (() => void)[] = [];
    const aws = fakeSdk(async (call): Promise<Fields> => {
      if (call.operation === "DescribeRepositories")
        return { repositories: [{ repositoryName: "shop", repositoryArn: arn }] };
      // Answered only once both reads were sent.
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length === 2) for (const release of held) release();
      });
      if (call.operation === "ListTagsForResource") return { tags: [{ Key: "team", Value: "a" }] };
      return { repositoryName: "shop", lifecyclePolicyText: policy };
    });
    const seen = await atOnce(aws.sdk).read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    assert.equal(seen.observed.fields["lifecyclePolicy"], policy);
    assert.deepEqual(seen.observed.tags, { team: "a" });
  });

  test("a failure is the first read's in their order; the object gone in any is not found", async () => {
    const failing = (tags: () => Fields, lifecycle: () => Fields) =>
      fakeSdk(async (call): Promise<Fields> => {
        if (call.operation === "DescribeRepositories")
          return { repositories: [{ repositoryName: "shop", repositoryArn: arn }] };
        if (call.operation === "ListTagsForResource") {
          // Answered after the group's read.
          await new Promise((resolve) => setImmediate(resolve));
          return tags();
        }
        return lifecycle();
      });
    const both = failing(
      () => {
        throw awsError("ThrottlingException");
      },
      () => {
        throw awsError("AccessDeniedException");
      },
    );
    const err = await atOnce(both.sdk)
      .read(both.client, { name: "shop" }, {})
      .then(
        () => assert.fail("no error"),
        (e: unknown) => e as { code?: string },
      );
    assert.equal(err.code, "Throttling", "the tag read's, first in order, though answered last");
    const gone = failing(
      () => {
        throw awsError("ThrottlingException");
      },
      () => {
        throw awsError("RepositoryNotFoundException");
      },
    );
    assert.deepEqual(await atOnce(gone.sdk).read(gone.client, { name: "shop" }, {}), { found: false });
  });
});

describe("a paginated tag read (the model's NextToken)", () => {
  test("every page is read, and the tags are all of them", async () => {
    const aws = fakeSdk((call): Fields => {
      if (call.operation === "DescribeRepositories")
        return { repositories: [{ repositoryName: "shop", repositoryArn: arn }] };
      if (call.operation === "ListTagsForResource")
        return call.input["NextToken"] === undefined
          ? { tags: [{ Key: "team", Value: "a" }], NextToken: "p2" }
          : { tags: [{ Key: "services.k8s.aws/owner-uid", Value: "u-1" }] };
      if (call.operation === "GetLifecyclePolicy") throw awsError("LifecyclePolicyNotFoundException");
      return {};
    });
    const module = declaredKindModule({
      ...source(aws.sdk),
      generated: {
        ...generated,
        runtime: { ...generated.runtime, tagsPage: { input: "NextToken", output: "NextToken" } },
      },
    });
    const seen = await module.read(aws.client, { name: "shop" }, {});
    assert.ok(seen.found);
    assert.deepEqual(seen.observed.tags, { team: "a", "services.k8s.aws/owner-uid": "u-1" });
    assert.deepEqual(
      aws.sent.filter((c) => c.operation === "ListTagsForResource").map((c) => c.input),
      [{ resourceArn: arn }, { resourceArn: arn, NextToken: "p2" }],
    );
  });
});

describe("states of the object's parts, and an open list of busy states", () => {
  const states = {
    member: "status",
    busy: ["CREATING", "UPDATING"],
    parts: [{ list: "replicas", member: "replicaStatus", name: "region", noun: "replica in" }],
  };
  const reading = (repository: Fields) => {
    const aws = fakeSdk((call): Fields => {
      if (call.operation === "DescribeRepositories")
        return { repositories: [{ repositoryName: "shop", repositoryArn: arn, ...repository }] };
      if (call.operation === "GetLifecyclePolicy") throw awsError("LifecyclePolicyNotFoundException");
      return {};
    });
    const module = declaredKindModule({
      ...source(aws.sdk),
      generated: { ...generated, runtime: { ...generated.runtime, states } },
    });
    return module.read(aws.client, { name: "shop" }, {}).then((r) => {
      assert.ok(r.found);
      return module.busy?.(r.observed);
    });
  };

  test("a state not listed as busy is written to (AWS may add states)", async () => {
    assert.equal(await reading({ status: "SOMETHING_NEW" }), undefined);
  });
  test("a part in a busy state holds writes, and the words name it", async () => {
    const busy = await reading({
      status: "ACTIVE",
      replicas: [
        { region: "eu-west-1", replicaStatus: "ACTIVE" },
        { region: "us-west-2", replicaStatus: "CREATING" },
      ],
    });
    assert.deepEqual(busy, {
      reason: "status",
      message: "repository shop is CREATING (replica in us-west-2) in AWS; waiting",
      requeueAfterMs: 10_000,
    });
  });
});

describe("deletion protection and hints by operation (runtime.deletionProtected, hints)", () => {
  const protectedModule = (sdk: Readonly<Record<string, unknown>>) =>
    declaredKindModule({
      ...source(sdk),
      declaration: ecrLikeDeclaration(declaration.groups, {
        deletionProtected: { code: "Validation", words: "deletion ?protect", field: "repositoryName" },
        hints: { InUse: { DeleteRepository: " (deleting: busy)", "": " (busy)" } },
      }),
    });

  test("a delete refused while deletion protection is on is retried, naming the field and the fix", async () => {
    const aws = fakeSdk((call) => {
      if (call.operation === "DeleteRepository")
        throw awsError("ValidationException", "cannot delete while deletion protection is on");
      return {};
    });
    const module = protectedModule(aws.sdk);
    const err = await module.delete(aws.client, { name: "shop" }, {}, {}).then(
      () => assert.fail("no error"),
      (e: unknown) => e,
    );
    assert.equal(module.isTerminal(err), false);
    const text = module.describeError(err, { name: "shop" });
    assert.match(
      text,
      /^spec\.name: DeleteRepository on repository "shop" refused: deletion protection is on/,
    );
    assert.match(text, /services\.k8s\.aws\/deletion-policy: retain/);
  });

  test("the same code is worded by the operation that failed, else by the kind's default", async () => {
    const failing = (operation: string) =>
      fakeSdk((call) => {
        if (call.operation === operation) throw awsError("InUseException");
        if (call.operation === "DescribeRepositories")
          return { repositories: [{ repositoryName: "shop", repositoryArn: arn }] };
        return {};
      });
    const del = failing("DeleteRepository");
    const m1 = protectedModule(del.sdk);
    const e1 = await m1.delete(del.client, { name: "shop" }, {}, {}).catch((e: unknown) => e);
    assert.match(m1.describeError(e1, { name: "shop" }), /\(deleting: busy\)$/);
    const read = failing("DescribeRepositories");
    const m2 = protectedModule(read.sdk);
    const e2 = await m2.read(read.client, { name: "shop" }, {}).catch((e: unknown) => e);
    assert.match(m2.describeError(e2, { name: "shop" }), /\(busy\)$/);
  });
});
