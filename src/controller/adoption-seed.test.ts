import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseAdoptionFields } from "../api/annotations.ts";
import { keyService } from "../services/kms/key.ts";
import { bucketService } from "../services/s3/bucket.ts";
import { topicService } from "../services/sns/topic.ts";
import { queueService } from "../services/sqs/queue.ts";
import { adoptionFieldsConflict, adoptionSeed } from "./adoption-seed.ts";

const at = { region: "eu-west-1", account: "111111111111" };
const adopt = (fields: Record<string, string>) => ({ adoptionPolicy: "adopt", adoptionFields: fields });
const message = (r: { ok: boolean; message?: string }) => (r.ok ? "" : (r.message ?? ""));

describe("adoptionSeed", () => {
  test("a kind named by the ID AWS assigns (a KMS Key) is not adopted by fields: refused, saying why", () => {
    const r = adoptionSeed(keyService, adopt({ keyID: "1234abcd-12ab-34cd-56ef-1234567890ab" }), at);
    assert.match(
      message(r),
      /^a Key is named by the ID AWS assigns it.*adoption-fields is not supported yet/,
    );
    assert.match(
      adoptionFieldsConflict(keyService, adopt({ keyID: "x" }), { description: "d" }, at) ?? "",
      /not supported yet/,
    );
  });

  test("ACK's keys name the object: a bucket's name, a queue's URL, a topic's ARN", () => {
    assert.deepEqual(adoptionSeed(bucketService, adopt({ name: "my-bucket" }), at), {
      ok: true,
      value: { name: "my-bucket" },
    });
    assert.deepEqual(
      adoptionSeed(
        queueService,
        adopt({ queueURL: "https://sqs.eu-west-1.amazonaws.com/111111111111/orders" }),
        at,
      ),
      { ok: true, value: { queueName: "orders" } },
    );
    // An emulator's URL names no region; its account still counts.
    assert.deepEqual(
      adoptionSeed(queueService, adopt({ queueURL: "http://127.0.0.1:5000/111111111111/orders.fifo" }), at),
      { ok: true, value: { queueName: "orders.fifo", fifoQueue: "true" } },
    );
    assert.deepEqual(
      adoptionSeed(topicService, adopt({ arn: "arn:aws:sns:eu-west-1:111111111111:alerts" }), at),
      { ok: true, value: { name: "alerts" } },
    );
  });

  test("an address in another account or region is refused: an adoption never takes another account's object", () => {
    assert.match(
      message(
        adoptionSeed(
          queueService,
          adopt({ queueURL: "https://sqs.eu-west-1.amazonaws.com/222222222222/orders" }),
          at,
        ),
      ),
      /queueURL names account 222222222222, but this resource acts in account 111111111111/,
    );
    assert.match(
      message(adoptionSeed(topicService, adopt({ arn: "arn:aws:sns:us-east-1:111111111111:alerts" }), at)),
      /arn names region us-east-1, but this resource acts in eu-west-1/,
    );
    assert.match(
      message(adoptionSeed(topicService, adopt({ arn: "alerts" }), at)),
      /arn "alerts" is not one/,
    );
  });

  test("no adoption asked for, fields without the key, or a name the kind refuses: a message naming the annotation and the fix", () => {
    assert.match(
      message(adoptionSeed(bucketService, { adoptionPolicy: null, adoptionFields: { name: "b" } }, at)),
      /this Bucket has no spec: give it one, or adopt .*adoption-policy: adopt and services\.k8s\.aws\/adoption-fields: \{"name"/,
    );
    assert.match(
      message(adoptionSeed(bucketService, adopt({ bucket: "b" }), at)),
      /services\.k8s\.aws\/adoption-fields: services\.k8s\.aws\/adoption-fields names no name \(it has bucket\)/,
    );
    assert.match(
      message(adoptionSeed(bucketService, adopt({ name: "Not_A_Bucket" }), at)),
      /names an object this Bucket cannot hold: spec\.name/,
    );
  });
});

describe("parseAdoptionFields", () => {
  test("a JSON object of non-empty strings", () => {
    assert.deepEqual(parseAdoptionFields('{"name": "b"}'), { ok: true, value: { name: "b" } });
    for (const bad of ["name=b", "[]", "{}", '{"name": 3}', '{"name": ""}']) {
      const r = parseAdoptionFields(bad);
      assert.equal(r.ok, false, bad);
      assert.match(
        r.ok ? "" : r.error,
        /annotation services\.k8s\.aws\/adoption-fields: .*write a JSON object of strings/,
      );
    }
  });
});

describe("adoptionFieldsConflict: a spec and adoption fields naming two objects", () => {
  const spec = (name: string) => ({ name });
  test("the same object, or no adoption with fields: nothing to say", () => {
    assert.equal(
      adoptionFieldsConflict(bucketService, adopt({ name: "my-bucket" }), spec("my-bucket"), at),
      undefined,
    );
    assert.equal(
      adoptionFieldsConflict(
        bucketService,
        { adoptionPolicy: "adopt", adoptionFields: null },
        spec("my-bucket"),
        at,
      ),
      undefined,
    );
    assert.equal(
      adoptionFieldsConflict(
        topicService,
        adopt({ arn: "arn:aws:sns:eu-west-1:111111111111:alerts" }),
        spec("alerts"),
        at,
      ),
      undefined,
    );
  });

  test("another object: named with both fields and the fix; fields naming another account say that", () => {
    assert.equal(
      adoptionFieldsConflict(
        topicService,
        adopt({ arn: "arn:aws:sns:eu-west-1:111111111111:alerts" }),
        spec("other"),
        at,
      ),
      'services.k8s.aws/adoption-fields names Topic "alerts", but spec.name is "other": with a spec, crossrole adopts (or creates) the object the spec names. Set spec.name to "alerts" to adopt it, or remove the annotation (or the spec, to adopt "alerts" as it is)',
    );
    assert.match(
      adoptionFieldsConflict(
        topicService,
        adopt({ arn: "arn:aws:sns:eu-west-1:222222222222:alerts" }),
        spec("alerts"),
        at,
      ) ?? "",
      /names account 222222222222/,
    );
  });
});
