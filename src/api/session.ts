// The STS session parameters an IAMRoleSelector and an AWSRoleIdentity share (they become
// AssumeRole's RoleSessionName, DurationSeconds, ExternalId, Tags and TransitiveTagKeys).
import { z } from "zod";
import type { Rule } from "./rules.ts";
import {
  durationSecondsField,
  externalIdField,
  limits,
  sessionNameField,
  sessionTagsField,
  tagKeysField,
  tenantSessionTagKeys,
} from "./validation.ts";

export const sessionParametersShape = {
  externalID: externalIdField("externalID")
    .optional()
    .describe("The external ID the role's trust policy requires (sts:AssumeRole ExternalId)."),
  sessionName: sessionNameField("sessionName")
    .optional()
    .describe("The STS session name (RoleSessionName); default: one naming crossrole and the resource."),
  durationSeconds: durationSecondsField("durationSeconds")
    .optional()
    .describe("How long the assumed credentials last, in seconds (900 to the role's maximum; default 3600)."),
  sessionTags: sessionTagsField("sessionTags")
    .optional()
    .describe("Session tags passed to sts:AssumeRole (the role's trust policy must allow sts:TagSession)."),
  transitiveTagKeys: tagKeysField("transitiveTagKeys")
    .optional()
    .describe("Keys of sessionTags that carry over to roles this session assumes in turn."),
  /** Adds kubernetes-namespace / kubernetes-kind / kubernetes-name session tags. */
  tenantSessionTags: z
    .boolean({ error: "tenantSessionTags must be true or false" })
    .optional()
    .describe(
      "Adds the session tags kubernetes-namespace, kubernetes-kind and kubernetes-name of the resource, for the role's policies to condition on.",
    ),
};

const sessionParametersSchema = z.object(sessionParametersShape);
export type SessionParameters = z.infer<typeof sessionParametersSchema>;

const tenantKeysCel = `[${tenantSessionTagKeys.map((k) => `'${k}'`).join(", ")}]`;
const isTenantKey = (key: string): boolean => (tenantSessionTagKeys as readonly string[]).includes(key);
const maxUserTagsWithTenant = limits.sessionTagsMax - limits.tenantSessionTagCount;

/** Cross-field rules over the session parameters; apply them on the object that spreads the shape. */
export const sessionRules: readonly Rule<SessionParameters>[] = [
  {
    cel:
      "!has(self.transitiveTagKeys) || self.transitiveTagKeys.all(k, " +
      "(has(self.sessionTags) && self.sessionTags.exists(t, t.key == k)) || " +
      `(has(self.tenantSessionTags) && self.tenantSessionTags && k in ${tenantKeysCel}))`,
    message:
      "transitiveTagKeys must only name keys that are in sessionTags (or added by tenantSessionTags); add the tag or remove the key",
    fieldPath: ".transitiveTagKeys",
    check: (s) =>
      (s.transitiveTagKeys ?? []).every(
        (k) =>
          (s.sessionTags ?? []).some((t) => t.key === k) || (s.tenantSessionTags === true && isTenantKey(k)),
      ),
  },
  {
    cel: `!has(self.tenantSessionTags) || !self.tenantSessionTags || !has(self.sessionTags) || size(self.sessionTags) <= ${maxUserTagsWithTenant}`,
    message: `sessionTags may hold at most ${maxUserTagsWithTenant} tags when tenantSessionTags is true (it adds 3 of the 50 STS allows); remove some`,
    fieldPath: ".sessionTags",
    check: (s) => s.tenantSessionTags !== true || (s.sessionTags ?? []).length <= maxUserTagsWithTenant,
  },
  {
    cel: `!has(self.tenantSessionTags) || !self.tenantSessionTags || !has(self.sessionTags) || !self.sessionTags.exists(t, t.key in ${tenantKeysCel})`,
    message: `sessionTags must not set ${tenantSessionTagKeys.join(", ")} when tenantSessionTags is true (the controller sets them); remove those tags`,
    fieldPath: ".sessionTags",
    check: (s) => s.tenantSessionTags !== true || !(s.sessionTags ?? []).some((t) => isTenantKey(t.key)),
  },
];
