// A queue's attributes as SQS reports them in one account (the emulator's), or undefined when it
// has no queue of that name there: what the queue tests check AWS's side with.
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from "@aws-sdk/client-sqs";
import { clientAs } from "../../src/local-stack/accounts.ts";

export async function queueAttributesIn(
  endpoint: string,
  account: string,
  name: string,
): Promise<Record<string, string> | undefined> {
  const sqs = await clientAs(SQSClient, endpoint, account);
  let url: string | undefined;
  try {
    url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  } catch (err) {
    if ((err as { name?: string }).name === "QueueDoesNotExist") return undefined;
    throw err;
  }
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }));
  return out.Attributes ?? {};
}
