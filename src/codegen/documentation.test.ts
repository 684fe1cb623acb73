import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { firstParagraph, namedListEntries, plainText } from "./documentation.ts";

describe("AWS documentation as CRD descriptions", () => {
  it("keeps the first paragraph as text, inline markup joined and entities decoded", () => {
    const html =
      "<p>The ID of a <i>custom</i> key, e.g. <code>alias/<i>MyAlias</i></code> &amp; more.</p> <p>Second paragraph.</p>";
    assert.equal(firstParagraph(html), "The ID of a custom key, e.g. alias/MyAlias & more.");
  });

  it("keeps the list a first paragraph introduces", () => {
    const html =
      "<p>The name. These limits apply:</p> <ul> <li> <p>Up to 80 characters</p> </li> <li><p>Ends with <code>.fifo</code>.</p></li> </ul> <p>Other.</p>";
    assert.equal(firstParagraph(html), "The name. These limits apply: Up to 80 characters. Ends with .fifo.");
  });

  it("reads text without paragraphs, and nothing as empty", () => {
    assert.equal(firstParagraph("Plain <b>words</b>"), "Plain words");
    assert.equal(firstParagraph(undefined), "");
    assert.equal(plainText("a  (\n b )"), "a (b)");
  });

  it("reads the entries of an attribute list by name, the first entry of a name winning", () => {
    const html =
      "<ul><li><p><code>DelaySeconds</code> – The delay. Default: 0.</p></li><li><p><code>Policy</code> – The policy.</p></li><li><p><code>DelaySeconds</code> – again</p></li></ul>";
    assert.deepEqual(
      [...namedListEntries(html)],
      [
        ["DelaySeconds", "The delay. Default: 0."],
        ["Policy", "The policy."],
      ],
    );
  });

  it("an entry that introduces a list keeps the list's entries, nested lists included (SQS's RedrivePolicy)", () => {
    const html =
      "<ul><li><p><code>RedrivePolicy</code> – The parameters are as follows:</p> <ul> <li> <p><code>deadLetterTargetArn</code> – The ARN of the dead-letter queue.</p> </li> <li> <p><code>maxReceiveCount</code> – The number of receives. Default: 10</p> </li> </ul> </li><li><p><code>Policy</code> – The policy.</p></li></ul>";
    const entries = namedListEntries(html);
    assert.equal(
      entries.get("RedrivePolicy"),
      "The parameters are as follows: deadLetterTargetArn – The ARN of the dead-letter queue. maxReceiveCount – The number of receives. Default: 10.",
    );
    assert.equal(entries.get("Policy"), "The policy.");
  });
});
