// crossrole's version, from package.json: one place for the ownership tag, logs and user agents.
import packageJson from "../package.json" with { type: "json" };

export const crossroleVersion: string = packageJson.version;
