// Kubernetes name syntax for label keys, label values and namespace names, as apimachinery's
// util/validation defines it (IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain/Label).
// Each check returns the reasons a string is invalid (empty when valid), phrased like the
// messages kubectl users already know, so a selector error reads the same here as from the API.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// Shared by the name part of a label key and by a non-empty label value.
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

const DNS1123_LABEL_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;
const QUALIFIED_NAME_MAX = 63;
const LABEL_VALUE_MAX = 63;

// Completes "… must" or "… must be an empty string or".
const NAME_CHARSET =
  "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Reasons `value` is not a lowercase RFC 1123 subdomain (e.g. `example.com`). */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) {
    errors.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  }
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      "must be a lowercase RFC 1123 subdomain: lower case alphanumeric characters, '-' or '.', " +
        "starting and ending with an alphanumeric character (e.g. 'example.com')",
    );
  }
  return errors;
}

/** Reasons `value` is not a lowercase RFC 1123 label, which is what a namespace name must be. */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errors.push(`must be no more than ${DNS1123_LABEL_MAX} characters`);
  if (!DNS1123_LABEL.test(value)) {
    errors.push(
      "must be a lowercase RFC 1123 label: lower case alphanumeric characters or '-', " +
        "starting and ending with an alphanumeric character (e.g. 'my-name' or '123-abc')",
    );
  }
  return errors;
}

/**
 * Reasons `key` is not a valid label key: an optional DNS-1123 subdomain prefix (≤ 253) and
 * '/', then a name (≤ 63) of alphanumerics, '-', '_' and '.', alphanumeric at both ends.
 */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split("/");
  if (parts.length > 2) {
    return [
      `a qualified name must ${NAME_CHARSET}, with an optional DNS subdomain prefix and '/' (e.g. 'MyName' or 'example.com/MyName')`,
    ];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) errors.push("prefix part must be non-empty");
    else for (const e of dns1123SubdomainErrors(prefix)) errors.push(`prefix part ${e}`);
  }
  if (name.length === 0) {
    errors.push("name part must be non-empty");
  } else {
    if (name.length > QUALIFIED_NAME_MAX) {
      errors.push(`name part must be no more than ${QUALIFIED_NAME_MAX} characters`);
    }
    if (!QUALIFIED_NAME.test(name)) {
      errors.push(`name part must ${NAME_CHARSET} (e.g. 'MyName', 'my.name' or '123-abc')`);
    }
  }
  return errors;
}

/** Reasons `value` is not a valid label value: empty, or ≤ 63 characters of the name charset. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > LABEL_VALUE_MAX) errors.push(`must be no more than ${LABEL_VALUE_MAX} characters`);
  if (value.length > 0 && !QUALIFIED_NAME.test(value)) {
    errors.push(
      `a valid label value must be an empty string or ${NAME_CHARSET} (e.g. 'MyValue', 'my_value' or '12345')`,
    );
  }
  return errors;
}
