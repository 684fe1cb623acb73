// Default tags (`crossrole run --resource-tags`, the chart's `resourceTags`): key=value pairs
// written on every AWS object crossrole creates or adopts, as ACK's `--resource-tags` does
// (aws-controllers-k8s/runtime pkg/runtime/tags.go). Values may hold ACK's variables, expanded
// per object; a tag whose key or (expanded) value is empty is skipped, as ACK does. Two rules
// ACK does not need: the user's own spec tags win over a default tag of the same key
// (spec-default-tags.ts), and no reserved key (reserved-tag-keys.ts: crossrole's ownership tags,
// ACK's, AWS's aws:) can be set by a default tag: they decide whose an object is. And what is
// sent fits AWS's tag limits: a key longer than 128 characters stops the controller at start,
// and an expanded value longer than 256 (a 253-character object name expands to more) is cut
// to a stable 256 (api/tag-limits.ts fitTagValue), never a create AWS must refuse. Pure.
import { isReservedTagKey } from "../api/reserved-tag-keys.ts";
import { awsTagKeyMaxLength, fitTagValue } from "../api/tag-limits.ts";

/** One `key=value` item of --resource-tags; `value` may hold variables. */
export interface DefaultTag {
  readonly key: string;
  readonly value: string;
}

/** What a default tag's variables expand to, for one Kubernetes object and its AWS object. */
export interface TagVariables {
  /** The AWS service of the kind (s3, sqs, sns, dynamodb, rds). */
  readonly service: string;
  readonly controllerVersion: string;
  readonly namespace: string;
  readonly name: string;
  readonly kind: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The account and region the object lands in (crossrole's: ACK has one of each per controller). */
  readonly account: string;
  readonly region: string;
}

/** ACK's variables (tag_format.go) and crossrole's two for where an object lands. */
const variables: Readonly<Record<string, (v: TagVariables) => string>> = {
  "%CONTROLLER_SERVICE%": (v) => v.service,
  "%CONTROLLER_VERSION%": (v) => v.controllerVersion,
  "%K8S_NAMESPACE%": (v) => v.namespace,
  "%K8S_RESOURCE_NAME%": (v) => v.name,
  "%K8S_RESOURCE_KIND%": (v) => v.kind,
  // ACK reads these two from the object's labels (runtime util.go getManagedBy, getKROVersion).
  "%MANAGED_BY%": (v) => v.labels["app.kubernetes.io/managed-by"] ?? "",
  "%KRO_VERSION%": (v) => v.labels["kro.run/kro-version"] ?? "",
  "%MANAGED_ACCOUNT_ID%": (v) => v.account,
  "%MANAGED_REGION%": (v) => v.region,
};
export const tagVariableNames: readonly string[] = Object.keys(variables);

export interface ParsedDefaultTags {
  readonly tags: readonly DefaultTag[];
  /** Keys given that are reserved (crossrole's and ACK's ownership tags, aws:): never written from here. */
  readonly reserved: readonly string[];
}

/**
 * Parses --resource-tags items (each `key=value`; the flag's commas already split). An item
 * without exactly one `=` is an error, as in ACK's config validation; an empty key or value
 * after trimming is skipped, as ACK's GetDefaultTags does. A later item wins over an earlier
 * one with the same key. A key longer than AWS allows is an error naming it: no object could
 * carry it.
 */
export function parseDefaultTags(
  items: readonly string[],
):
  | { readonly ok: true; readonly value: ParsedDefaultTags }
  | { readonly ok: false; readonly message: string } {
  const byKey = new Map<string, string>();
  const reserved: string[] = [];
  for (const raw of items) {
    const item = raw.trim();
    if (item === "") continue;
    const parts = item.split("=");
    if (parts.length !== 2) {
      return {
        ok: false,
        message: `--resource-tags ${JSON.stringify(item)}: expected exactly one = (key=value; values may use ${tagVariableNames.join(", ")})`,
      };
    }
    const key = (parts[0] ?? "").trim();
    const value = (parts[1] ?? "").trim();
    if (key === "" || value === "") continue;
    const keyLength = [...key].length;
    if (keyLength > awsTagKeyMaxLength) {
      return {
        ok: false,
        message: `--resource-tags key ${JSON.stringify(key)} has ${keyLength} characters; AWS allows tag keys of at most ${awsTagKeyMaxLength}: shorten it`,
      };
    }
    if (isReservedTagKey(key)) {
      if (!reserved.includes(key)) reserved.push(key);
      continue;
    }
    byKey.set(key, value);
  }
  return { ok: true, value: { tags: [...byKey].map(([key, value]) => ({ key, value })), reserved } };
}

/**
 * The default tags for one object: variables expanded, then fitted to AWS's value limit
 * (fitTagValue); tags whose value expands to nothing skipped.
 */
export function expandDefaultTags(tags: readonly DefaultTag[], vars: TagVariables): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of tags) {
    let expanded = value;
    for (const [name, resolve] of Object.entries(variables)) {
      if (expanded.includes(name)) expanded = expanded.replaceAll(name, resolve(vars));
    }
    if (expanded !== "") out[key] = fitTagValue(expanded);
  }
  return out;
}
