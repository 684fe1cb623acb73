import { parseSpecWith, parseStatusWith, type ServiceModule } from "../service-module.ts";
import {
  adoptedSpec,
  errorReporting,
  fromDeclared,
  observationOf,
  pathsOf,
  seedFromAddress,
  specFieldComparison,
  withoutKeys,
} from "../service-module-parts.ts";
import { snsClientFactory } from "./client.ts";
import { diff, lateInitialize } from "./diff.ts";
import { classifyError, isTopicError } from "./errors.ts";
import { topicDeclared } from "./generated/topic-fields.ts";
import { arnOf, parseTopicArn, tagMapOf, userTags } from "./mapping.ts";
import { type TopicFields, type TopicSpec, topicKind, topicSpecSchema, topicStatusSchema } from "./schema.ts";
import {
  claimTopic,
  createTopic,
  deleteTopic,
  type ObservedTopic,
  readTopic,
  type TopicClient,
  updateTopic,
} from "./topic.ts";

/** The spec fields of what AWS has. */
const fieldsOf = (observed: ObservedTopic): TopicFields =>
  withoutKeys(observed, ["arn", "owner", "effectiveDeliveryPolicy"]);

export const topicService: ServiceModule<TopicSpec, ObservedTopic, TopicClient> = {
  kind: topicKind,
  parseSpec: parseSpecWith(topicSpecSchema),
  parseStatus: parseStatusWith(topicStatusSchema),
  async client(credentials, decision, resource) {
    const sns = await credentials.client(snsClientFactory, decision, resource);
    const account = decision.account ?? (await credentials.callerIdentity(decision, resource)).account;
    return { sns, account, region: await sns.config.region() };
  },
  ...fromDeclared(topicDeclared),
  adoptionSeed: (fields, at) => {
    const arn = fields["arn"];
    if (arn === undefined) {
      return fields["name"] === undefined
        ? { ok: false, message: 'names no arn: write {"arn": "<the topic\'s ARN>"} (ACK\'s key)' }
        : { ok: true, value: { name: fields["name"] } };
    }
    return seedFromAddress("arn", arn, parseTopicArn(arn), "name", at);
  },
  read: async (client, spec, ctx) => observationOf(await readTopic(client, spec, ctx), "topic"),
  tagsOf: (observed) => tagMapOf(observed.tags),
  async create(client, spec, _region, ownerTags, ctx) {
    const r = await createTopic(client, spec, ownerTags, ctx);
    return r.created ? { created: true, status: {} } : { created: false };
  },
  update: async (client, desired, observed, ownerTags, ctx) =>
    pathsOf(await updateTopic(client, desired, fieldsOf(observed), ownerTags, ctx)),
  claim: (client, observed, ownerTags, ctx) => claimTopic(client, observed, ownerTags, ctx),
  delete: (client, spec, ctx) => deleteTopic(client, spec.name, ctx),
  ...specFieldComparison(fieldsOf, diff, lateInitialize),
  specFromObserved(observed, spec) {
    const { tags, ...fields } = fieldsOf(observed);
    return adoptedSpec(fields, "tags", userTags(tags), spec);
  },
  arn: (spec, region, account) => arnOf(spec.name, region, account),
  statusFrom: (observed) => ({
    topicARN: observed.arn,
    ...(observed.owner === undefined ? {} : { owner: observed.owner }),
    ...(observed.effectiveDeliveryPolicy === undefined
      ? {}
      : { effectiveDeliveryPolicy: observed.effectiveDeliveryPolicy }),
  }),
  observedRegion: (observed) => parseTopicArn(observed.arn)?.region,
  ...errorReporting(isTopicError, (err, spec: TopicSpec) =>
    classifyError(err, { operation: "GetTopicAttributes", topic: spec.name }),
  ),
};
