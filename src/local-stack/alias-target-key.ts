// The KMS key an example's Alias points at in an account of the emulator: a real account has its
// own keys, the emulator none, so an example (or a test's minimal Alias) writes `key-<account>` as
// its `spec.targetKeyID` and the local stack replaces it with a key it makes in that account and
// region once, found again by its alias `alias/local-stack-key` (example-placeholders.ts). Two
// JSON calls to KMS (emulator-query.ts), no SDK.
import { emulatorJson } from "./emulator-query.ts";

export const aliasTargetAlias = "alias/local-stack-key";

/** The ID of the local stack's key in the account of `accessKeyId` and `region`, made if missing. */
export async function aliasTargetKey(endpoint: string, accessKeyId: string, region: string): Promise<string> {
  const as = { accessKeyId, region, service: "kms" };
  const call = (operation: string, body: Record<string, unknown>) =>
    emulatorJson(endpoint, as, `TrentService.${operation}`, body);
  const refused = (operation: string, r: { status: number; answer: unknown }) =>
    new Error(`the emulator refused the local stack's ${operation}: ${r.status} ${JSON.stringify(r.answer)}`);
  const known = async () => {
    const r = await call("ListAliases", {});
    if (!r.ok) throw refused("ListAliases", r);
    const listed = (r.answer["Aliases"] ?? []) as { AliasName?: string; TargetKeyId?: string }[];
    return listed.find((a) => a.AliasName === aliasTargetAlias)?.TargetKeyId;
  };
  const found = await known();
  if (found !== undefined) return found;
  const made = await call("CreateKey", { Description: "the local stack's key for example aliases" });
  const id = (made.answer["KeyMetadata"] as { KeyId?: string } | undefined)?.KeyId;
  if (!made.ok || id === undefined) throw refused("CreateKey", made);
  const aliased = await call("CreateAlias", { AliasName: aliasTargetAlias, TargetKeyId: id });
  if (aliased.ok) return id;
  // Another apply made it meanwhile: that one is the account's.
  const theirs = await known();
  if (theirs === undefined) throw refused("CreateAlias", aliased);
  return theirs;
}
