import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { aclAfterApplying, aclFromAws, grantees, putBucketAclInput, sameAcl } from "./acl.ts";

const owner = { ID: "owner-id" };
const ownerFull = {
  Grantee: { Type: "CanonicalUser" as const, ID: "owner-id" },
  Permission: "FULL_CONTROL" as const,
};
const allUsersRead = {
  Grantee: { Type: "Group" as const, URI: "http://acs.amazonaws.com/groups/global/AllUsers" },
  Permission: "READ" as const,
};

describe("bucket ACL", () => {
  test("GetBucketAcl's grants read back as the canned ACL they are, and as grant fields", () => {
    assert.deepEqual(aclFromAws({ Owner: owner, Grants: [ownerFull] }), {
      acl: "private",
      grantFullControl: 'id="owner-id"',
    });
    assert.deepEqual(aclFromAws({ Owner: owner, Grants: [ownerFull, allUsersRead] }), {
      acl: "public-read",
      grantFullControl: 'id="owner-id"',
      grantRead: 'uri="http://acs.amazonaws.com/groups/global/AllUsers"',
    });
    // Without the owner's full control it is no canned ACL.
    assert.deepEqual(aclFromAws({ Owner: owner, Grants: [allUsersRead] }), {
      grantRead: 'uri="http://acs.amazonaws.com/groups/global/AllUsers"',
    });
  });

  test("a spec with neither acl nor grants means private; acl compares the canned ACL; grants compare as sets", () => {
    const publicRead = aclFromAws({ Owner: owner, Grants: [ownerFull, allUsersRead] });
    const privateAcl = aclFromAws({ Owner: owner, Grants: [ownerFull] });
    assert.equal(sameAcl({}, privateAcl), true);
    assert.equal(sameAcl({}, publicRead), false);
    assert.equal(sameAcl({ acl: "public-read" }, publicRead), true);
    assert.equal(sameAcl({ acl: "public-read" }, privateAcl), false);
    assert.equal(
      sameAcl(
        {
          grantRead: 'URI="http://acs.amazonaws.com/groups/global/AllUsers"',
          grantFullControl: "id=owner-id",
        },
        publicRead,
      ),
      true,
    );
    assert.equal(sameAcl({ grantRead: 'id="someone"' }, publicRead), false);
  });

  test("PutBucketAcl carries the grants, else the canned ACL, private when the spec has neither", () => {
    assert.deepEqual(putBucketAclInput("b", {}), { Bucket: "b", ACL: "private" });
    assert.deepEqual(putBucketAclInput("b", { acl: "public-read" }), { Bucket: "b", ACL: "public-read" });
    assert.deepEqual(putBucketAclInput("b", { grantRead: 'id="x"', grantWriteACP: 'id="y"' }), {
      Bucket: "b",
      GrantRead: 'id="x"',
      GrantWriteACP: 'id="y"',
    });
    assert.deepEqual(aclAfterApplying({ grantRead: 'id="y", id="x"' }), { grantRead: 'id="x", id="y"' });
  });

  test("grant headers parse into sorted grantees whatever the spacing and the key's case", () => {
    assert.deepEqual(grantees(' id="b" ,EmailAddress="a@example.com", uri=http://x'), [
      'emailAddress="a@example.com"',
      'id="b"',
      'uri="http://x"',
    ]);
  });
});
