import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { awsPartitions } from "./aws-partitions.ts";
import { indexPartitions, partitionOf, regionStanding, unknownRegionWarning } from "./known-regions.ts";

const awsPattern = String.raw`^(us|eu|ap|sa|ca|me|af|il|mx)\-\w+\-\d+$`;

describe("regions the AWS SDK's partition data knows", () => {
  test("the data is the SDK's: every partition AWS has, each with its pattern and regions", () => {
    const ids = awsPartitions.map((p) => p.id);
    for (const id of ["aws", "aws-cn", "aws-us-gov", "aws-iso", "aws-iso-b"]) assert.ok(ids.includes(id), id);
    assert.equal(awsPartitions.find((p) => p.id === "aws")?.regionRegex, awsPattern);
    for (const p of awsPartitions) {
      assert.ok(p.regions.length > 0, p.id);
      // Every listed region of a real name has the form its partition's pattern says.
      const pattern = new RegExp(p.regionRegex);
      for (const r of p.regions.filter((r) => !r.endsWith("-global")))
        assert.match(r, pattern, `${p.id} ${r}`);
    }
  });

  test("listed regions of every partition are known, and get no warning", () => {
    for (const [region, partition] of [
      ["eu-west-1", "aws"],
      ["us-east-1", "aws"],
      ["cn-north-1", "aws-cn"],
      ["us-gov-west-1", "aws-us-gov"],
      ["us-isob-east-1", "aws-iso-b"],
      ["eusc-de-east-1", "aws-eusc"],
    ] as const) {
      assert.deepEqual(regionStanding(region), { kind: "listed", partition }, region);
      assert.equal(unknownRegionWarning(region, "the controller's --aws-region"), undefined, region);
    }
  });

  test("a region no partition lists or has the form of is unknown; the warning names every partition's pattern", () => {
    for (const region of ["mars-north-1", "xx-fake-9", "zz-east-1"]) {
      assert.deepEqual(regionStanding(region), { kind: "unknown" }, region);
      const warning = unknownRegionWarning(region, "the resource's annotation services.k8s.aws/region") ?? "";
      assert.ok(
        warning.startsWith(
          `region ${region} (the resource's annotation services.k8s.aws/region) is not known to any AWS partition`,
        ),
        warning,
      );
      for (const p of awsPartitions)
        assert.ok(warning.includes(`${p.id} ${p.regionRegex}`), `${p.id} in ${warning}`);
      assert.match(warning, /check the spelling \(it is not blocked, since AWS opens new regions\)$/);
    }
  });

  test("a region of a partition's form that it does not list (a typo, or newer than the SDK) is warned about, naming that pattern", () => {
    for (const [region, partition] of [
      ["eu-wset-1", "aws"],
      ["us-fake-1", "aws"],
      ["cn-south-7", "aws-cn"],
      ["us-gov-north-3", "aws-us-gov"],
    ] as const) {
      const standing = regionStanding(region);
      assert.equal(standing.kind, "pattern", region);
      assert.equal(standing.kind === "pattern" ? standing.partition.id : "", partition, region);
      const warning = unknownRegionWarning(region, "status.ackResourceMetadata.region") ?? "";
      const regex = awsPartitions.find((p) => p.id === partition)?.regionRegex ?? "?";
      assert.ok(
        warning.includes(`has the form of AWS partition ${partition}'s regions (${regex}) but is not one`),
        warning,
      );
    }
  });

  test("the partition data is an input: a region is known exactly when the given data lists it", () => {
    const index = indexPartitions([
      { id: "mars", regionRegex: "^mars\\-\\w+\\-\\d+$", regions: ["mars-north-1"] },
    ]);
    assert.deepEqual(regionStanding("mars-north-1", index), { kind: "listed", partition: "mars" });
    assert.equal(unknownRegionWarning("mars-north-1", "here", index), undefined);
    assert.equal(regionStanding("mars-south-2", index).kind, "pattern");
    assert.equal(regionStanding("eu-west-1", index).kind, "unknown");
    assert.match(unknownRegionWarning("eu-west-1", "here", index) ?? "", /known regions follow mars \^mars/);
  });
});

describe("partitionOf (ACK's status.ackResourceMetadata.partition)", () => {
  test("names the partition the SDK's data puts a region in, by list or by pattern; aws otherwise", () => {
    assert.equal(partitionOf("eu-west-1"), "aws");
    assert.equal(partitionOf("cn-north-1"), "aws-cn");
    assert.equal(partitionOf("us-gov-west-1"), "aws-us-gov");
    assert.equal(partitionOf("cn-west-9"), "aws-cn", "a newer region of the China partition's form");
    assert.equal(partitionOf("mars-north-1"), "aws");
  });
});
