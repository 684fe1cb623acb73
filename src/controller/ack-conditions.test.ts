import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  controllerRef,
  namespace,
  resource,
  role,
  roleIdentity,
  selector,
  selectorMode,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { Decision } from "../resolver/types.ts";
import type { Condition } from "../runtime/conditions.ts";
import {
  conditionTypes,
  iamRoleSelectedFor,
  maxConditionMessage,
  nextConditions,
  type SyncState,
  syncStateForDecision,
} from "./ack-conditions.ts";

const X = "111111111111";
const Y = "222222222222";
const carm = settingsWith();

const carmSnapshot = buildSnapshot(
  {
    namespaces: [
      namespace("shop", { "services.k8s.aws/owner-account-id": X }),
      namespace("nomap", { "services.k8s.aws/owner-account-id": Y }),
      namespace("sandbox"),
    ],
    configMaps: [configMap("ack-role-account-map", { [X]: role(X) })],
    identities: [roleIdentity("central", role(Y, "central"), controllerRef, { list: ["shop"] })],
  },
  carm,
);
const selectorSnapshot = buildSnapshot(
  {
    namespaces: [namespace("shop")],
    iamRoleSelectors: [selector("a", { arn: role(X, "a") }, "7"), selector("b", { arn: role(Y, "b") })],
  },
  selectorMode,
);

/** The decisions the conditions are computed from, taken by the real resolver. */
const decisions = {
  carmUse: resolve(resource("shop"), "shop", carmSnapshot, carm),
  carmWait: resolve(resource("nomap"), "nomap", carmSnapshot, carm),
  identityRefDeny: resolve(
    resource("sandbox", { identityRef: { kind: "AWSRoleIdentity", name: "central" } }),
    "sandbox",
    carmSnapshot,
    carm,
  ),
  accountDrift: resolve(
    resource("shop", { status: { ownerAccountID: Y, region: "eu-west-1", arn: "arn:aws:s3:::x" } }),
    "shop",
    carmSnapshot,
    carm,
  ),
  selectorUse: resolve(
    resource("shop", { annotations: { "services.k8s.aws/iam-role-selector": "a" } }),
    "shop",
    selectorSnapshot,
    selectorMode,
  ),
  selectorConflict: resolve(resource("shop"), "shop", selectorSnapshot, selectorMode),
} satisfies Record<string, Decision>;

const t0 = new Date("2030-01-01T00:00:00.000Z");
const t1 = new Date("2030-01-01T00:05:00.000Z");
const t2 = new Date("2030-01-01T00:10:00.000Z");

const synced: SyncState = { kind: "synced" };
const recoverable = (reason = "AWSError", message = "S3 said no"): SyncState => ({
  kind: "recoverable",
  reason,
  message,
});
const terminal = (reason = "RegionDrift", message = "wrong region"): SyncState => ({
  kind: "terminal",
  reason,
  message,
});

const find = (list: readonly Condition[], type: string) => list.find((c) => c.type === type);
const types = (list: readonly Condition[]) => list.map((c) => c.type);

describe("the decisions these tests use", () => {
  test("are the outcomes their names say", () => {
    assert.equal(decisions.carmUse.outcome, "use");
    assert.equal(decisions.carmWait.outcome, "wait");
    assert.equal(decisions.identityRefDeny.outcome, "deny");
    assert.equal(decisions.accountDrift.drift?.kind, "account");
    assert.equal(decisions.selectorUse.outcome, "use");
    assert.equal(decisions.selectorUse.source, "iamRoleSelector");
    assert.equal(decisions.selectorConflict.outcome, "conflict");
  });
});

describe("nextConditions: Ready follows Terminal > Recoverable > Synced", () => {
  test("synced: ResourceSynced and Ready True, no Recoverable or Terminal", () => {
    const list = nextConditions(undefined, synced, null, 3, t0);
    assert.deepEqual(types(list), [conditionTypes.synced, conditionTypes.ready]);
    for (const type of [conditionTypes.synced, conditionTypes.ready]) {
      assert.deepEqual(find(list, type), {
        type,
        status: "True",
        reason: "Synced",
        message: "Resource synced with AWS",
        lastTransitionTime: "2030-01-01T00:00:00Z",
        observedGeneration: 3,
      });
    }
  });

  test("a kind that late-initialises: ACK.LateInitialized True once synced, kept while a later failure is said", () => {
    const list = nextConditions(undefined, synced, null, 3, t0, [], true);
    assert.deepEqual(find(list, conditionTypes.lateInitialized), {
      type: conditionTypes.lateInitialized,
      status: "True",
      reason: "Late initialization successful",
      message: "Late initialization successful",
      lastTransitionTime: "2030-01-01T00:00:00Z",
      observedGeneration: 3,
    });
    assert.equal(
      find(nextConditions(undefined, synced, null, 3, t0), conditionTypes.lateInitialized),
      undefined,
    );
    const later = nextConditions(
      list,
      recoverable("IdentityUnavailable", "map missing"),
      null,
      4,
      t0,
      [],
      true,
    );
    assert.equal(find(later, conditionTypes.lateInitialized)?.status, "True");
  });

  test("references (ACK.ReferencesResolved): True once resolved, False with the refusal, gone when none are set, kept when not reached", () => {
    const resolved = nextConditions(undefined, synced, null, 2, t0, [], false, "resolved");
    assert.deepEqual(find(resolved, conditionTypes.referencesResolved), {
      type: conditionTypes.referencesResolved,
      status: "True",
      reason: "Resolved",
      message: "Every reference is resolved",
      lastTransitionTime: "2030-01-01T00:00:00Z",
      observedGeneration: 2,
    });
    const waiting = recoverable(
      "ReferenceNotSynced",
      "spec.targetKeyRef names Key a/k, which is not Synced yet",
    );
    const refused = nextConditions(resolved, waiting, null, 3, t0, [], false, "refused");
    assert.deepEqual(
      [
        find(refused, conditionTypes.referencesResolved)?.status,
        find(refused, conditionTypes.referencesResolved)?.reason,
      ],
      ["False", "ReferenceNotSynced"],
    );
    assert.equal(
      find(refused, conditionTypes.referencesResolved)?.message,
      "spec.targetKeyRef names Key a/k, which is not Synced yet",
    );
    // Not reached (the decision blocked the reconcile first): the condition stays as it was.
    const blocked = nextConditions(refused, recoverable("IdentityUnavailable", "map missing"), null, 4, t0);
    assert.equal(find(blocked, conditionTypes.referencesResolved)?.reason, "ReferenceNotSynced");
    assert.equal(
      find(
        nextConditions(blocked, synced, null, 5, t0, [], false, "none"),
        conditionTypes.referencesResolved,
      ),
      undefined,
    );
    assert.equal(
      find(nextConditions(undefined, synced, null, 1, t0), conditionTypes.referencesResolved),
      undefined,
    );
  });

  test("recoverable: Recoverable True; ResourceSynced and Ready False with its reason and message", () => {
    const list = nextConditions(undefined, recoverable("IdentityUnavailable", "map missing"), null, 1, t0);
    assert.deepEqual(
      types(list).sort(),
      [conditionTypes.recoverable, conditionTypes.synced, conditionTypes.ready].sort(),
    );
    assert.equal(find(list, conditionTypes.recoverable)?.status, "True");
    for (const type of [conditionTypes.recoverable, conditionTypes.synced, conditionTypes.ready]) {
      assert.equal(find(list, type)?.reason, "IdentityUnavailable", type);
      assert.equal(find(list, type)?.message, "map missing", type);
    }
    assert.equal(find(list, conditionTypes.synced)?.status, "False");
    assert.equal(find(list, conditionTypes.ready)?.status, "False");
    assert.equal(find(list, conditionTypes.terminal), undefined);
  });

  test("terminal: Terminal True; Ready False with the terminal reason; a previous Recoverable is removed", () => {
    const before = nextConditions(undefined, recoverable(), null, 1, t0);
    const list = nextConditions(before, terminal("AccountDrift", "wrong account"), null, 1, t1);
    assert.equal(find(list, conditionTypes.terminal)?.status, "True");
    assert.equal(find(list, conditionTypes.recoverable), undefined, "Recoverable no longer applies");
    assert.equal(find(list, conditionTypes.ready)?.status, "False");
    assert.equal(find(list, conditionTypes.ready)?.reason, "AccountDrift");
    assert.equal(find(list, conditionTypes.ready)?.message, "wrong account");
    assert.equal(find(list, conditionTypes.synced)?.reason, "AccountDrift");
  });

  test("recoverable after terminal: Terminal is removed, Ready carries the recoverable reason", () => {
    const before = nextConditions(undefined, terminal(), null, 1, t0);
    const list = nextConditions(before, recoverable("AWSError", "throttled"), null, 2, t1);
    assert.equal(find(list, conditionTypes.terminal), undefined);
    assert.equal(find(list, conditionTypes.recoverable)?.status, "True");
    assert.equal(find(list, conditionTypes.ready)?.reason, "AWSError");
  });

  test("synced after a failure: Recoverable and Terminal are removed once resolved", () => {
    for (const failure of [recoverable(), terminal()]) {
      const before = nextConditions(undefined, failure, null, 1, t0);
      const list = nextConditions(before, synced, null, 2, t1);
      assert.equal(find(list, conditionTypes.recoverable), undefined, failure.kind);
      assert.equal(find(list, conditionTypes.terminal), undefined, failure.kind);
      assert.equal(find(list, conditionTypes.ready)?.status, "True", failure.kind);
      assert.equal(find(list, conditionTypes.synced)?.status, "True", failure.kind);
    }
  });

  test("progressing (e.g. Creating): Synced and Ready False with its reason; no Recoverable or Terminal, even after one", () => {
    const creating: SyncState = { kind: "progressing", reason: "Creating", message: "Creating bucket x" };
    for (const before of [undefined, nextConditions(undefined, recoverable(), null, 1, t0)]) {
      const list = nextConditions(before, creating, null, 1, t1);
      assert.deepEqual(types(list).sort(), [conditionTypes.ready, conditionTypes.synced].sort());
      for (const type of [conditionTypes.synced, conditionTypes.ready]) {
        assert.equal(find(list, type)?.status, "False", type);
        assert.equal(find(list, type)?.reason, "Creating", type);
        assert.equal(find(list, type)?.message, "Creating bucket x", type);
      }
    }
  });

  test("conditions the controller does not own are kept, in place", () => {
    const foreign: Condition = {
      type: "example.com/Audited",
      status: "True",
      reason: "Checked",
      lastTransitionTime: "2029-12-31T00:00:00Z",
    };
    const list = nextConditions([foreign], recoverable(), null, 1, t0);
    assert.deepEqual(list[0], foreign);
    const again = nextConditions(list, synced, null, 1, t1);
    assert.deepEqual(again[0], foreign);
  });

  test("the input list is not modified", () => {
    const before = nextConditions(undefined, recoverable(), null, 1, t0);
    const copy = structuredClone(before);
    nextConditions(before, synced, null, 2, t1);
    assert.deepEqual(before, copy);
  });
});

describe("nextConditions: the decision's warnings", () => {
  const unknownRegion = {
    reason: "UnknownRegion",
    message: "Region mars-north-1 (the controller's --aws-region) is not known to any AWS partition",
  };
  const ignored = { reason: "AnnotationIgnored", message: "The annotation x is ignored." };

  test("are added to ResourceSynced and Ready while synced", () => {
    const list = nextConditions(undefined, synced, null, 1, t0, [unknownRegion, ignored]);
    for (const type of [conditionTypes.synced, conditionTypes.ready]) {
      assert.equal(find(list, type)?.status, "True");
      assert.equal(
        find(list, type)?.message,
        "Resource synced with AWS. Warning: Region mars-north-1 (the controller's --aws-region) is not known to any AWS partition. Warning: The annotation x is ignored.",
      );
    }
  });

  test("are added while progressing, but a failure's message stands alone", () => {
    const creating: SyncState = { kind: "progressing", reason: "Creating", message: "Creating bucket b" };
    const list = nextConditions(undefined, creating, null, 1, t0, [unknownRegion]);
    assert.equal(
      find(list, conditionTypes.synced)?.message,
      `Creating bucket b. Warning: ${unknownRegion.message}.`,
    );
    const failed = nextConditions(undefined, recoverable("AWSError", "S3 said no"), null, 1, t0, [
      unknownRegion,
    ]);
    for (const type of [conditionTypes.recoverable, conditionTypes.synced, conditionTypes.ready]) {
      assert.equal(find(failed, type)?.message, "S3 said no", type);
    }
  });

  test("none: the plain message", () => {
    assert.equal(
      find(nextConditions(undefined, synced, null, 1, t0, []), conditionTypes.synced)?.message,
      "Resource synced with AWS",
    );
  });
});

describe("nextConditions: messages fit the CRD", () => {
  test("a message longer than a condition holds is cut to the limit, saying so", () => {
    const list = nextConditions(undefined, recoverable("AWSError", "x".repeat(40_000)), null, 1, t0);
    for (const type of [conditionTypes.recoverable, conditionTypes.synced, conditionTypes.ready]) {
      const message = find(list, type)?.message ?? "";
      assert.equal(message.length, maxConditionMessage, type);
      assert.match(message, /^x+… \(cut: too long for a condition\)$/);
    }
    const short = nextConditions(undefined, recoverable("AWSError", "short"), null, 1, t0);
    assert.equal(find(short, conditionTypes.ready)?.message, "short");
  });
});

describe("nextConditions: lastTransitionTime changes only when status flips", () => {
  test("the same state again keeps every transition time (reason and message may change)", () => {
    const first = nextConditions(undefined, recoverable("AWSError", "first"), null, 1, t0);
    const second = nextConditions(first, recoverable("AWSError", "second"), null, 1, t1);
    for (const c of second) {
      assert.equal(c.lastTransitionTime, "2030-01-01T00:00:00Z", c.type);
    }
    assert.equal(find(second, conditionTypes.ready)?.message, "second");
  });

  test("Recoverable → Terminal: Ready stays False and keeps its time; the new Terminal gets now", () => {
    const first = nextConditions(undefined, recoverable(), null, 1, t0);
    const second = nextConditions(first, terminal(), null, 1, t1);
    assert.equal(find(second, conditionTypes.ready)?.lastTransitionTime, "2030-01-01T00:00:00Z");
    assert.equal(find(second, conditionTypes.synced)?.lastTransitionTime, "2030-01-01T00:00:00Z");
    assert.equal(find(second, conditionTypes.terminal)?.lastTransitionTime, "2030-01-01T00:05:00Z");
  });

  test("a flip to synced and back stamps each flip's time", () => {
    const failing = nextConditions(undefined, recoverable(), null, 1, t0);
    const ok = nextConditions(failing, synced, null, 2, t1);
    assert.equal(find(ok, conditionTypes.ready)?.lastTransitionTime, "2030-01-01T00:05:00Z");
    assert.equal(find(ok, conditionTypes.synced)?.lastTransitionTime, "2030-01-01T00:05:00Z");
    const steady = nextConditions(ok, synced, null, 2, t2);
    assert.equal(find(steady, conditionTypes.ready)?.lastTransitionTime, "2030-01-01T00:05:00Z");
    const failingAgain = nextConditions(steady, recoverable(), null, 3, t2);
    assert.equal(find(failingAgain, conditionTypes.ready)?.lastTransitionTime, "2030-01-01T00:10:00Z");
    assert.equal(find(failingAgain, conditionTypes.recoverable)?.lastTransitionTime, "2030-01-01T00:10:00Z");
  });

  test("observedGeneration follows the generation; an unknown generation keeps the recorded one", () => {
    const g1 = nextConditions(undefined, synced, null, 1, t0);
    const g4 = nextConditions(g1, synced, null, 4, t1);
    assert.ok(g4.every((c) => c.observedGeneration === 4));
    const unknown = nextConditions(g4, synced, null, undefined, t2);
    assert.ok(unknown.every((c) => c.observedGeneration === 4));
  });
});

describe("ACK.IAMRoleSelected only for selector decisions", () => {
  test("a selector's `use`: True, reason Selected, naming the selector, its resourceVersion and the role", () => {
    assert.deepEqual(iamRoleSelectedFor(decisions.selectorUse), {
      type: conditionTypes.iamRoleSelected,
      status: "True",
      reason: "Selected",
      message: `IAMRoleSelector a (resourceVersion 7) selected ${role(X, "a")}`,
    });
  });

  test("a selector conflict: False with the conflict's reason and message", () => {
    assert.deepEqual(iamRoleSelectedFor(decisions.selectorConflict), {
      type: conditionTypes.iamRoleSelected,
      status: "False",
      reason: "IdentityConflict",
      message: "Cannot determine which IAMRoleSelector to use. Conflicting IAMRoleSelectors: [a, b]",
    });
  });

  test("CARM and identityRef decisions have no IAMRoleSelected condition", () => {
    for (const d of [decisions.carmUse, decisions.carmWait, decisions.identityRefDeny]) {
      assert.equal(iamRoleSelectedFor(d), null, d.source ?? "");
    }
  });

  test("written with the other conditions and its own observedGeneration", () => {
    const list = nextConditions(undefined, synced, iamRoleSelectedFor(decisions.selectorUse), 5, t0);
    const c = find(list, conditionTypes.iamRoleSelected);
    assert.equal(c?.status, "True");
    assert.equal(c?.observedGeneration, 5);
    assert.equal(c?.lastTransitionTime, "2030-01-01T00:00:00Z");
  });

  test("removed when the decision no longer comes from a selector", () => {
    const withSelector = nextConditions(undefined, synced, iamRoleSelectedFor(decisions.selectorUse), 1, t0);
    const without = nextConditions(withSelector, synced, iamRoleSelectedFor(decisions.carmUse), 1, t1);
    assert.equal(find(without, conditionTypes.iamRoleSelected), undefined);
  });

  test("True → False on conflict flips its transition time", () => {
    const selected = nextConditions(undefined, synced, iamRoleSelectedFor(decisions.selectorUse), 1, t0);
    const conflict = syncStateForDecision(decisions.selectorConflict);
    assert.ok(conflict);
    const list = nextConditions(selected, conflict, iamRoleSelectedFor(decisions.selectorConflict), 1, t1);
    const c = find(list, conditionTypes.iamRoleSelected);
    assert.equal(c?.status, "False");
    assert.equal(c?.lastTransitionTime, "2030-01-01T00:05:00Z");
  });
});

describe("syncStateForDecision", () => {
  test("a clean `use` lets the reconcile proceed", () => {
    assert.equal(syncStateForDecision(decisions.carmUse), null);
    assert.equal(syncStateForDecision(decisions.selectorUse), null);
  });

  test("wait, deny and conflict are Recoverable with the decision's reason and message", () => {
    for (const [d, reason] of [
      [decisions.carmWait, "IdentityUnavailable"],
      [decisions.identityRefDeny, "IdentityNotPermitted"],
      [decisions.selectorConflict, "IdentityConflict"],
    ] as const) {
      assert.deepEqual(syncStateForDecision(d), { kind: "recoverable", reason, message: d.message });
    }
  });

  test("a `use` with blocking drift is Terminal with ACK's drift message", () => {
    assert.deepEqual(syncStateForDecision(decisions.accountDrift), {
      kind: "terminal",
      reason: "AccountDrift",
      message: `Resource already exists in account ${Y}, but the role used for reconciliation is in account ${X}`,
    });
  });
});
