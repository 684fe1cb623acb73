// The text form of `explain` for decisions the example manifests do not produce: drift,
// static keys, service-account web identity, configuration problems.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Decision } from "../resolver/types.ts";
import { renderText } from "./render-text.ts";
import type { ExplainContext, ExplainReport } from "./report.ts";
import { buildReport, exitCodeFor } from "./report.ts";

const context: ExplainContext = {
  systemNamespace: "ack-system",
  resourceLevelCARM: false,
  identityRef: null,
  resourceAnnotations: {},
  namespaceAnnotations: {},
  unknownAccountReason: null,
};

const base: ExplainReport = {
  resource: { kind: "Queue", namespace: "orders", name: "jobs" },
  outcome: "use",
  source: "default",
  reason: "Selected",
  roleARN: null,
  account: "123456789012",
  region: "eu-central-1",
  endpoint: null,
  selector: null,
  chain: [{ kind: "AWSControllerIdentity", name: "default", parameters: {} }],
  message: "controller credentials",
  drift: null,
  trace: [
    { rule: "identityRef", result: "skipped", detail: "The resource has no spec.identityRef." },
    { rule: "default", result: "taken", detail: "The controller's own credentials." },
  ],
  problems: [],
  warnings: [],
  served: true,
};

describe("renderText", () => {
  test("numbers the trace steps with rule and result", () => {
    const text = renderText(base, context);
    assert.match(
      text,
      /How this was decided:\n {3}1\. identityRef \(skipped\): The resource has no spec\.identityRef\.\n {3}2\. default \(taken\): /,
    );
  });

  test("controller credentials: says so instead of a role", () => {
    const text = renderText(base, context);
    assert.match(
      text,
      /^Queue orders\/jobs will be reconciled in account 123456789012 \(eu-central-1\) as the controller's own credentials, because nothing asks for another identity/,
    );
    assert.match(text, /Chain: controller credentials\./);
  });

  test("a kind this build does not serve reads as what would apply, with a warning that nothing happens", () => {
    const report = buildReport(
      {
        apiVersion: "sqs.services.k8s.aws/v1alpha1",
        kind: "Queue",
        metadata: { name: "jobs", namespace: "orders" },
      },
      { ...base, outcome: "use", selector: null, warnings: [] } as unknown as Decision,
      [],
      [],
      false,
    );
    assert.equal(report.served, false);
    assert.match(
      report.warnings[0] ?? "",
      /^Queue is not reconciled by this crossrole \(it serves Bucket, .*\): nothing happens in AWS/,
    );
    assert.match(renderText({ ...base, served: false }, context), /^Queue orders\/jobs would be reconciled/);
  });

  test("an unknown controller account says why it is unknown", () => {
    const text = renderText(
      { ...base, account: null },
      { ...context, unknownAccountReason: "sts:GetCallerIdentity failed: no credentials" },
    );
    assert.match(
      text,
      /in the controller's own account \(not known: sts:GetCallerIdentity failed: no credentials\)/,
    );
  });

  test("static keys name the identity and the Secret, never its data", () => {
    const text = renderText(
      {
        ...base,
        source: "identityRef",
        chain: [{ kind: "AWSStaticIdentity", name: "legacy", parameters: { secretRef: "legacy-keys" } }],
      },
      { ...context, identityRef: { kind: "AWSStaticIdentity", name: "legacy" } },
    );
    assert.match(
      text,
      /as the static keys of AWSStaticIdentity legacy, because spec\.identityRef names AWSStaticIdentity legacy/,
    );
    assert.match(
      text,
      /Chain: static keys from Secret ack-system\/legacy-keys \(AWSStaticIdentity legacy\)\./,
    );
  });

  test("a service-account identity shows the ServiceAccount and the web-identity hop with its parameters", () => {
    const role = "arn:aws:iam::210987654321:role/orders";
    const text = renderText(
      {
        ...base,
        source: "identityRef",
        roleARN: role,
        account: "210987654321",
        chain: [
          {
            kind: "AWSServiceAccountIdentity",
            name: "orders",
            namespace: "orders",
            roleARN: role,
            parameters: { serviceAccountName: "orders-sa", sessionName: "orders-jobs", durationSeconds: 900 },
          },
        ],
      },
      { ...context, identityRef: { kind: "AWSServiceAccountIdentity", name: "orders" } },
    );
    assert.match(
      text,
      /Chain: token of ServiceAccount orders\/orders-sa, assume arn:aws:iam::210987654321:role\/orders with web identity \(AWSServiceAccountIdentity orders; session orders-jobs, 900 s\)\./,
    );
  });

  test("a selector choice names the selector and its resourceVersion, and the endpoint", () => {
    const role = "arn:aws:iam::333333333333:role/a";
    const text = renderText(
      {
        ...base,
        source: "iamRoleSelector",
        roleARN: role,
        account: "333333333333",
        endpoint: "http://127.0.0.1:4566",
        selector: { name: "a-sel", resourceVersion: "42" },
        chain: [
          { kind: "AWSControllerIdentity", name: "default", parameters: {} },
          {
            kind: "IAMRoleSelector",
            name: "a-sel",
            roleARN: role,
            resourceVersion: "42",
            parameters: { externalID: "x" },
          },
        ],
      },
      context,
    );
    assert.match(
      text,
      /\(eu-central-1, endpoint http:\/\/127\.0\.0\.1:4566\) as arn:aws:iam::333333333333:role\/a, because IAMRoleSelector a-sel \(resourceVersion 42\) matches it\./,
    );
    assert.match(
      text,
      /→ assume arn:aws:iam::333333333333:role\/a \(IAMRoleSelector a-sel; with external ID\)/,
    );
  });

  test("a blocked account drift says it is blocked and how to fix it, and exits 3", () => {
    const report: ExplainReport = {
      ...base,
      reason: "AccountDrift",
      drift: {
        kind: "account",
        message:
          "Resource already exists in account 111111111111, but the role used for reconciliation is in account 123456789012",
      },
    };
    const text = renderText(report, context);
    assert.match(
      text,
      /But it is blocked: Resource already exists in account 111111111111, but the role used for reconciliation is in account 123456789012\./,
    );
    assert.match(text, /Fix: restore the mapping .* --account-drift-policy=recreate/);
    assert.equal(exitCodeFor(report), 3);
    assert.equal(exitCodeFor(base), 0);
  });

  test("configuration problems are listed with their fix, at most ten", () => {
    const problems = Array.from({ length: 12 }, (_, i) => ({
      object: { kind: "IAMRoleSelector", name: `sel-${i}` },
      field: "spec.arn",
      severity: "error" as const,
      message: "not an IAM role ARN",
      fix: "use arn:aws:iam::<account>:role/<name>",
    }));
    const text = renderText({ ...base, problems }, context);
    assert.match(
      text,
      /Problems in the configuration \(objects with errors are ignored\):\n {2}- error: IAMRoleSelector sel-0 spec\.arn: not an IAM role ARN\. Fix: use arn:aws:iam::<account>:role\/<name>/,
    );
    assert.doesNotMatch(text, /sel-10/);
    assert.match(text, /\.\.\. and 2 more \(see -o json\)\./);
  });
});
