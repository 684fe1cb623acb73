import { parseSpecWith, type ServiceModule } from "../service-module.ts";
import { snsClientFactory } from "./client.ts";
import { diff, lateInitialize } from "./diff.ts";
import { classifyError, isTopicError } from "./errors.ts";
import { arnOf, parseTopicArn, tagMapOf, userTags } from "./mapping.ts";
import { type TopicFields, type TopicSpec, topicKind, topicSpecSchema } from "./schema.ts";
import {
  claimTopic,
  createTopic,
  deleteTopic,
  type ObservedTopic,
  readTopic,
  type TopicClient,
  updateTopic,
} from "./topic.ts";

function fieldsOf(observed: ObservedTopic): TopicFields {
  const { arn: _arn, owner: _owner, effectiveDeliveryPolicy: _edp, ...fields } = observed;
  return fields;
}

export const topicService: ServiceModule<TopicSpec, ObservedTopic, TopicClient> = {
  kind: topicKind,
  parseSpec: parseSpecWith(topicSpecSchema),
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
