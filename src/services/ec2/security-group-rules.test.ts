import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  canonicalCidr,
  canonicalProtocol,
  grantsOf,
  merged,
  rulesPlan,
  sameRules,
} from "./security-group-rules.ts";

const self = "sg-0123456789abcdef0";

describe("security group rules as EC2 keeps them", () => {
  test("protocols: numbers by their names, all as -1, others as given", () => {
    assert.deepEqual(["6", "17", "1", "58", "TCP", "all", "-1", "50", undefined].map(canonicalProtocol), [
      "tcp",
      "udp",
      "icmp",
      "icmpv6",
      "tcp",
      "-1",
      "-1",
      "50",
      "-1",
    ]);
  });

  test("CIDRs: the network, host bits cleared; IPv6 in RFC 5952's text; junk as given", () => {
    assert.equal(canonicalCidr("100.68.0.18/18"), "100.68.0.0/18");
    assert.equal(canonicalCidr("10.0.0.0/8"), "10.0.0.0/8");
    assert.equal(canonicalCidr("0.0.0.0/0"), "0.0.0.0/0");
    assert.equal(canonicalCidr("10.1.2.3/32"), "10.1.2.3/32");
    assert.equal(canonicalCidr("2001:DB8:abcd:0012::1/64"), "2001:db8:abcd:12::/64");
    assert.equal(canonicalCidr("::/0"), "::/0");
    assert.equal(canonicalCidr("not-a-cidr"), "not-a-cidr");
    assert.equal(canonicalCidr("10.0.0.0/40"), "10.0.0.0/40", "a prefix longer than the address: as given");
  });

  test("grants: one per source, ports dropped where the protocol has none, a pair without a group is the group itself", () => {
    const grants = grantsOf(
      [
        {
          ipProtocol: "6",
          fromPort: 443,
          toPort: 443,
          ipRanges: [{ cidrIP: "10.0.0.9/8", description: "office" }, { cidrIP: "192.168.0.0/16" }],
          userIDGroupPairs: [{ description: "itself" }, { groupID: "sg-aaaaaaaa", userID: "111111111111" }],
        },
        { ipProtocol: "-1", fromPort: -1, toPort: -1, ipv6Ranges: [{ cidrIPv6: "::/0" }] },
      ],
      self,
    );
    assert.deepEqual(
      grants.map((g) => g.key),
      [
        "tcp/443/443/ip:10.0.0.0/8",
        "tcp/443/443/ip:192.168.0.0/16",
        `tcp/443/443/sg:${self}`,
        "tcp/443/443/sg:sg-aaaaaaaa",
        "-1///ip6:::/0",
      ],
    );
    assert.deepEqual(grants[0]?.permission, {
      ipProtocol: "6",
      fromPort: 443,
      toPort: 443,
      ipRanges: [{ cidrIP: "10.0.0.0/8", description: "office" }],
    });
    assert.deepEqual(grants[2]?.permission["userIDGroupPairs"], [{ groupID: self, description: "itself" }]);
  });

  test("the spec's rules and EC2's merged, renamed and filled answer are the same rules", () => {
    const spec = [
      { ipProtocol: "tcp", fromPort: 5432, toPort: 5432, ipRanges: [{ cidrIP: "10.0.0.0/16" }] },
      { ipProtocol: "6", fromPort: 5432, toPort: 5432, userIDGroupPairs: [{ groupID: "sg-bbbbbbbb" }] },
      { ipProtocol: "icmpv6", ipv6Ranges: [{ cidrIPv6: "2001:db8::/32" }] },
    ];
    const ec2 = [
      {
        ipProtocol: "tcp",
        fromPort: 5432,
        toPort: 5432,
        ipRanges: [{ cidrIP: "10.0.0.0/16" }],
        userIDGroupPairs: [{ groupID: "sg-bbbbbbbb", userID: "222222222222", vpcID: "vpc-1" }],
      },
      { ipProtocol: "icmpv6", fromPort: -1, toPort: -1, ipv6Ranges: [{ cidrIPv6: "2001:db8::/32" }] },
    ];
    assert.equal(sameRules(spec, ec2, self), true);
    assert.equal(sameRules(undefined, [], self), true, "none and empty are the same");
  });

  test("a plan: EC2's extra grant revoked (the default egress rule), the spec's new one authorized, a description updated", () => {
    const have = [
      { ipProtocol: "-1", ipRanges: [{ cidrIP: "0.0.0.0/0" }] },
      {
        ipProtocol: "tcp",
        fromPort: 22,
        toPort: 22,
        ipRanges: [{ cidrIP: "10.0.0.0/8", description: "old" }],
      },
    ];
    const want = [
      {
        ipProtocol: "tcp",
        fromPort: 22,
        toPort: 22,
        ipRanges: [{ cidrIP: "10.0.0.0/8", description: "new" }],
      },
      { ipProtocol: "tcp", fromPort: 443, toPort: 443, prefixListIDs: [{ prefixListID: "pl-1" }] },
    ];
    const plan = rulesPlan(want, have, self);
    assert.deepEqual(plan.revoke, [{ ipProtocol: "-1", ipRanges: [{ cidrIP: "0.0.0.0/0" }] }]);
    assert.deepEqual(plan.authorize, [
      { ipProtocol: "tcp", fromPort: 443, toPort: 443, prefixListIDs: [{ prefixListID: "pl-1" }] },
    ]);
    assert.deepEqual(plan.describe, [
      {
        ipProtocol: "tcp",
        fromPort: 22,
        toPort: 22,
        ipRanges: [{ cidrIP: "10.0.0.0/8", description: "new" }],
      },
    ]);
    assert.equal(sameRules(want, have, self), false);
    assert.deepEqual(rulesPlan(undefined, have, self).revoke.length, 2, "left out: every rule revoked");
  });

  test("sent as given: the protocol and ports as the spec says them, icmpv6 without a type as all (-1); one permission per range", () => {
    const [esp, icmp] = grantsOf(
      [
        { ipProtocol: "50", fromPort: -1, toPort: -1, ipRanges: [{ cidrIP: "10.0.0.0/8" }] },
        { ipProtocol: "icmpv6", ipv6Ranges: [{ cidrIPv6: "::/0" }] },
      ],
      self,
    );
    assert.equal(esp?.key, "50///ip:10.0.0.0/8", "compared without the ports AWS drops");
    assert.deepEqual(esp?.permission, {
      ipProtocol: "50",
      fromPort: -1,
      toPort: -1,
      ipRanges: [{ cidrIP: "10.0.0.0/8" }],
    });
    assert.deepEqual(icmp?.permission, {
      ipProtocol: "icmpv6",
      fromPort: -1,
      toPort: -1,
      ipv6Ranges: [{ cidrIPv6: "::/0" }],
    });
    const two = grantsOf(
      [
        { ipProtocol: "tcp", fromPort: 9090, toPort: 9090, ipRanges: [{ cidrIP: "10.10.0.0/16" }] },
        { ipProtocol: "tcp", fromPort: 9090, toPort: 9090, ipRanges: [{ cidrIP: "10.20.0.0/16" }] },
      ],
      self,
    ).map((g) => g.permission);
    assert.deepEqual(merged(two), [
      {
        ipProtocol: "tcp",
        fromPort: 9090,
        toPort: 9090,
        ipRanges: [{ cidrIP: "10.10.0.0/16" }, { cidrIP: "10.20.0.0/16" }],
      },
    ]);
  });
});
