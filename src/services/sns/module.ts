// The SNS Topic kind plugged into the generic reconciler.
//
// SNS addresses a topic by an ARN that names the account, so the module's client is a
// TopicClient: the pooled SNSClient plus the account and region it acts in. The account is
// the decision's when the resolver knows it, else the identity's own (sts:GetCallerIdentity,
// cached by the credential service) — the same account the reconciler records and judges by,
// so no interface change was needed.
import { describeIssues } from "../../api/rules.ts";
import type { ServiceModule } from "../service-module.ts";
import {
  arnOf,
  claimTopic,
  classifyError,
  createTopic,
  deleteTopic,
  diff,
  isTopicError,
  lateInitialize,
  type ObservedTopic,
  parseTopicArn,
  readTopic,
  snsClientFactory,
  type TopicClient,
  type TopicFields,
  type TopicSpec,
  tagMapOf,
  topicKind,
  topicSpecSchema,
  updateTopic,
  userTags,
} from "./index.ts";

function fieldsOf(observed: ObservedTopic): TopicFields {
  const { arn: _arn, owner: _owner, effectiveDeliveryPolicy: _edp, ...fields } = observed;
  return fields;
}

export const topicService: ServiceModule<TopicSpec, ObservedTopic, TopicClient> = {
  kind: topicKind,
  parseSpec(spec) {
    const r = topicSpecSchema.safeParse(spec);
    return r.success
      ? { ok: true, value: r.data }
      : { ok: false, message: describeIssues(r.error, ["spec"]).join("; ") };
  },
  async client(credentials, decision, resource) {
    const sns = await credentials.client(snsClientFactory, decision, resource);
    const account = decision.account ?? (await credentials.callerIdentity(decision, resource)).account;
    return { sns, account, region: await sns.config.region() };
  },
  identifier: (spec) => spec.name,
  identifierField: "spec.name",
  async read(client, spec, ctx) {
    const r = await readTopic(client, spec, ctx);
    return r.found ? { found: true, observed: r.topic } : { found: false };
  },
  tagsOf: (observed) => tagMapOf(observed.tags),
  async create(client, spec, _region, ownerTags, ctx) {
    const r = await createTopic(client, spec, ownerTags, ctx);
    return r.created ? { created: true, status: {} } : { created: false };
  },
  async update(client, desired, observed, ownerTags, ctx) {
    return (await updateTopic(client, desired, fieldsOf(observed), ownerTags, ctx)).map((d) => d.path);
  },
  claim: (client, observed, ownerTags, ctx) => claimTopic(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteTopic(client, spec.name, ctx),
  diff: (desired, observed) => diff(desired, fieldsOf(observed)).map((d) => d.path),
  lateInitialize(spec, observed) {
    const r = lateInitialize(spec, fieldsOf(observed));
    return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
  },
  specFromObserved(observed, spec) {
    const { tags, ...fields } = fieldsOf(observed);
    const user = userTags(tags);
    return {
      ...fields,
      ...(user ? { tags: user } : {}),
      ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
    };
  },
  arn: (spec, region, account) => arnOf(spec.name, region, account),
  statusFrom: (observed) => ({
    ...(observed.owner === undefined ? {} : { owner: observed.owner }),
    ...(observed.effectiveDeliveryPolicy === undefined
      ? {}
      : { effectiveDeliveryPolicy: observed.effectiveDeliveryPolicy }),
  }),
  observedRegion: (observed) => parseTopicArn(observed.arn)?.region,
  isTerminal: (err) => isTopicError(err) && err.terminal,
  describeError(err, spec) {
    return (
      isTopicError(err) ? err : classifyError(err, { operation: "GetTopicAttributes", topic: spec.name })
    ).message;
  },
};
