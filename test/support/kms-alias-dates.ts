// KMS answers each alias's CreationDate in ListAliases; the emulator (moto 5.2.5) leaves it out.
// An untaggable Alias needs it to find its own create again (an interrupted one, a late one: the
// controller's record of its owner is written only after CreateAlias answered), so a test where
// that matters runs its proxy with these options: the time the emulator answered each CreateAlias
// (and forgot it on DeleteAlias) is added to ListAliases' answers, as KMS would say it.
import type { AwsProxyOptions, RecordedRequest } from "./aws-proxy.ts";

/** The alias a KMS call names, with the region its signature is for. */
function aliasOf(r: RecordedRequest): string | undefined {
  const region = /Credential=[^/]+\/\d+\/([^/]+)\//.exec(String(r.headers.authorization ?? ""))?.[1];
  try {
    const name = (JSON.parse(r.body || "{}") as { AliasName?: unknown }).AliasName;
    return typeof name === "string" ? `${region}|${name}` : undefined;
  } catch {
    return undefined;
  }
}

export function kmsAliasCreationDates(): Pick<AwsProxyOptions, "onAnswer" | "rewriteAnswer"> {
  const made = new Map<string, number>();
  return {
    onAnswer(r, status) {
      const alias = aliasOf(r);
      if (alias === undefined || status !== 200) return;
      if (r.action === "CreateAlias") made.set(alias, Date.now() / 1000);
      if (r.action === "DeleteAlias") made.delete(alias);
    },
    rewriteAnswer(r) {
      if (r.action !== "ListAliases") return undefined;
      const region = /Credential=[^/]+\/\d+\/([^/]+)\//.exec(String(r.headers.authorization ?? ""))?.[1];
      return (body) => {
        const answer = JSON.parse(body) as { Aliases?: { AliasName?: string; CreationDate?: number }[] };
        for (const alias of answer.Aliases ?? []) {
          const at = made.get(`${region}|${alias.AliasName}`);
          if (at !== undefined) alias.CreationDate = at;
        }
        return JSON.stringify(answer);
      };
    },
  };
}
