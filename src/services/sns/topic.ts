// The Topic kind: its declaration (topic-declaration.ts) served by the generic runtime, with SNS's
// value rules (schema.ts) and two quirks as hooks: ACK adopts a topic by its ARN; and SNS reports
// FifoTopic as a boolean string the spec holds as ACK's "true"/"false".
import type { SNSClient } from "@aws-sdk/client-sns";
import * as snsSdk from "@aws-sdk/client-sns";
import { parseNamedArn } from "../arn.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredKindSource, GeneratedKind } from "../declared-kind/source.ts";
import { seedFromAddress } from "../service-module-parts.ts";
import { stringBoolean } from "../string-boolean.ts";
import { snsClientFactory } from "./client.ts";
import { topicGenerated } from "./generated/topic-fields.ts";
import { topicKind, topicSpecSchema, topicStatusSchema } from "./schema.ts";
import { topicDeclaration } from "./topic-declaration.ts";

const generated = {
  ...topicGenerated,
  // ACK's status beside the ARN: two of the topic's read-only attributes.
  statusCodecs: { owner: ["Owner", {}], effectiveDeliveryPolicy: ["EffectiveDeliveryPolicy", {}] },
} satisfies GeneratedKind;

/** The region, account and name an SNS topic ARN names; undefined when it is not one. */
export const parseTopicArn = (arn: string) => parseNamedArn(arn, "sns");

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const topicSource = {
  kind: topicKind,
  declaration: topicDeclaration,
  generated,
  sdk: snsSdk,
  clientFactory: snsClientFactory,
  schemas: { spec: topicSpecSchema, status: topicStatusSchema },
  hooks: {
    // ACK's adoption names a topic by its ARN (its key), which must be in the resource's account
    // and region.
    adoptionSeed: (fields, at) => {
      const arn = fields["arn"];
      if (arn !== undefined) return seedFromAddress("arn", arn, parseTopicArn(arn), "name", at);
      return fields["name"] === undefined
        ? { ok: false, message: 'names no arn: write {"arn": "<the topic\'s ARN>"} (ACK\'s key)' }
        : { ok: true, value: { name: fields["name"] } };
    },
    observedFields: (fields) =>
      fields["fifoTopic"] === undefined
        ? fields
        : { ...fields, fifoTopic: stringBoolean(String(fields["fifoTopic"])) },
  },
} satisfies DeclaredKindSource<SNSClient>;

export const topicService = declaredKindModule(topicSource);
