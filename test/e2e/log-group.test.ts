// LogGroup — the eighth kind, CloudWatch Logs', a declaration served by the generic runtime with no
// hook — end to end with the real controller process: a log group in a namespace mapped to
// 111111111111 lands in that account (checked with that account's own credentials), tagged as the
// object's, with its retention and a subscription filter, Synced with ACK's status; a change of
// retention and the filter's removal are applied; a log group of the same name in the other account
// is never touched; deleting the object deletes the log group.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  DescribeLogGroupsCommand,
  DescribeSubscriptionFiltersCommand,
  ListTagsForResourceCommand,
  type LogGroup,
} from "@aws-sdk/client-cloudwatch-logs";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  clientAs,
  deleteResourceAndWait,
  type E2E,
  getResource,
  patchResource,
  region,
  startAppsInAccount,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startAppsInAccount(X);
  endpoint = e2e.stack.awsEndpoint ?? "";
});
after(() => e2e?.stop());

const logsAs = (account: string) => clientAs(CloudWatchLogsClient, endpoint, account);

async function logGroupIn(account: string, name: string): Promise<LogGroup | undefined> {
  const out = await (await logsAs(account)).send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name }));
  return out.logGroups?.find((g) => g.logGroupName === name);
}

function logGroup(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "cloudwatchlogs.services.k8s.aws/v1alpha1",
    kind: "LogGroup",
    metadata: { name, namespace: "apps" },
    spec: { name: `/apps/${name}`, ...spec },
  } as KubeObject;
}

const synced = (name: string, minGeneration = 1) =>
  waitForSynced(e2e.kube, "LogGroup", "apps", name, minGeneration);

test("a LogGroup lands in the namespace's account, tagged, with its retention and filter, Synced; changes are applied; the other account's log group of that name is untouched; delete deletes it", async () => {
  const name = "web";
  const awsName = `/apps/${name}`;
  // The same name in the other account, and a destination for the filter in X.
  await (await logsAs(Y)).send(new CreateLogGroupCommand({ logGroupName: awsName, tags: { mine: "y" } }));
  await (await logsAs(X)).send(new CreateLogGroupCommand({ logGroupName: "/apps/destination" }));
  const destination = `arn:aws:logs:${region}:${X}:log-group:/apps/destination`;
  await e2e.apply([
    logGroup(name, {
      retentionDays: 7,
      tags: { team: "web" },
      subscriptionFilters: [{ filterName: "errors", filterPattern: "ERROR", destinationARN: destination }],
    }),
  ]);
  const r = await synced(name);
  const arn = `arn:aws:logs:${region}:${X}:log-group:${awsName}`;
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.ackResourceMetadata?.arn, arn);
  const status = r.status as Record<string, unknown> | undefined;
  assert.ok(Number(status?.["creationTime"]) > 0, "ACK's creationTime");
  assert.ok(r.metadata.finalizers?.includes("finalizers.cloudwatchlogs.services.k8s.aws/LogGroup"));

  const made = await logGroupIn(X, awsName);
  assert.equal(made?.retentionInDays, 7);
  const x = await logsAs(X);
  const tags = (await x.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags ?? {};
  assert.equal(tags["team"], "web");
  assert.equal(tags["services.k8s.aws/owner-uid"], r.metadata.uid, "tagged as this object's");
  const filters = await x.send(new DescribeSubscriptionFiltersCommand({ logGroupName: awsName }));
  assert.deepEqual(
    filters.subscriptionFilters?.map((f) => [f.filterName, f.filterPattern, f.destinationArn]),
    [["errors", "ERROR", destination]],
  );

  await patchResource(e2e.kube, "LogGroup", "apps", name, {
    spec: { retentionDays: 30, subscriptionFilters: [] },
  });
  const patched = await getResource(e2e.kube, "LogGroup", "apps", name);
  await synced(name, patched?.metadata.generation ?? 0);
  assert.equal((await logGroupIn(X, awsName))?.retentionInDays, 30);
  const none = await x.send(new DescribeSubscriptionFiltersCommand({ logGroupName: awsName }));
  assert.deepEqual(none.subscriptionFilters, []);

  await deleteResourceAndWait(e2e.kube, "LogGroup", "apps", name);
  assert.equal(await logGroupIn(X, awsName), undefined, "deleted in AWS");
  const theirs = await logGroupIn(Y, awsName);
  assert.ok(theirs, "the other account's log group of that name is still there");
  assert.equal(theirs?.retentionInDays, undefined, "and untouched");
});
