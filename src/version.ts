// crossrole's version, from package.json: one place for the ownership tag, `crossrole
// --version`, the startup log and the user agent sent to Kubernetes and AWS.
import packageJson from "../package.json" with { type: "json" };

export const crossroleVersion: string = packageJson.version;

/** `crossrole/<version>`: the user agent product token (CloudTrail's userAgent shows it). */
export const userAgent = `crossrole/${crossroleVersion}`;
