// A kind's tag calls, as its tags group and runtime.tags declare them: the tags read page by page
// (the tag set's own "none" is no tags), written tag by tag (tag and untag by key) or whole (S3's
// PutBucketTagging; no tags is the remove call), on the object as `target` names it — or, where
// the tags are another service's (a directory bucket's: S3 Control), by that service's client on
// the object's ARN in its account, the SDK imported on first use.
import type { RuntimeDeclaration } from "../../codegen/declaration.ts";
import type { CallContext, SendOptions } from "../call-context.ts";
import type { ServiceCalls } from "../service-calls.ts";
import type { TagWrites } from "../tag-changes.ts";
import type { CallFailure } from "./errors.ts";
import { gone } from "./read-order.ts";
import type { DeclaredClient, Fields } from "./source.ts";
import type { TagShape } from "./tag-shape.ts";

export interface TagCallsOf<Sdk> {
  readonly kind: string;
  readonly runtime: RuntimeDeclaration;
  /** The tags group's calls, its spec field, and the create's member for the tags. */
  readonly group: { readonly set: string; readonly read: string; readonly remove?: string | undefined };
  readonly field: string;
  readonly member: string;
  readonly shape: TagShape;
  readonly calls: ServiceCalls<string, Omit<CallFailure, "operation" | "name">>;
  readonly run: (
    client: DeclaredClient<Sdk>,
    operation: string,
    input: unknown,
  ) => (o: SendOptions) => Promise<Fields>;
  /** The tag read's failures that mean no tags (S3's NoSuchTagSet), and those that mean no object. */
  readonly none: (err: unknown) => boolean;
  readonly isGone: (err: unknown) => boolean;
  /** The tag read's paging, where the model has it. */
  readonly page?: { readonly input: string; readonly output: string } | undefined;
  /** The object's ARN in a region and account (for another service's tag calls). */
  readonly arnOf: (name: string, region: string, account: string) => string;
  readonly moreSdk?: (() => Promise<Readonly<Record<string, unknown>>>) | undefined;
  /** How a tag call names the object, where not `{[runtime.tags.resource]: target}` (EC2's `Resources: [id]`). */
  readonly naming?: ((operation: string, target: string) => Fields | undefined) | undefined;
  /** The untag call takes tags, each key as this member of one (EC2's DeleteTags: `{Key}`). */
  readonly untagItem?: string | undefined;
}

export function tagCalls<Sdk>(t: TagCallsOf<Sdk>) {
  const { runtime, group, calls } = t;
  const declared = runtime.tags;
  if (declared === undefined) throw new Error(`${t.kind}: AWS cannot tag it (no runtime.tags): no tag calls`);
  const other = declared.client;
  const detail = { field: `spec.${t.field}` };
  /** One tag call: on the object as `target` names it, or by the other service's client on its ARN. */
  const tagRun =
    (client: DeclaredClient<Sdk>, operation: string, target: string, input: Fields) =>
    async (o: SendOptions): Promise<Fields> => {
      if (other === undefined)
        return t.run(client, operation, {
          ...(t.naming?.(operation, target) ?? { [declared.resource]: target }),
          ...input,
        })(o);
      if (client.more === undefined || t.moreSdk === undefined)
        throw new Error(
          `${t.kind}: its tags are ${other.service}'s, and the client gives no ${other.service} client`,
        );
      const [more, sdk] = await Promise.all([client.more(), t.moreSdk()]);
      const Command = sdk[`${operation}Command`] as (new (input: unknown) => unknown) | undefined;
      if (Command === undefined) throw new Error(`the ${other.service} SDK has no ${operation}Command`);
      const arn = t.arnOf(target, client.region, more.account);
      const answer = await more.sdk.send(
        new Command({ [other.account]: more.account, [declared.resource]: arn, ...input }),
        o,
      );
      return (answer ?? {}) as Fields;
    };
  /** Tags as the tag call takes them: a list member of another service's call, else as the create's. */
  const tagged = (tags: Readonly<Record<string, string>>): Fields => ({
    [declared.set ?? t.member]: other === undefined ? t.shape.toAws(tags) : t.shape.listToAws(tags),
  });
  return {
    /** Every tag, page by page where the tag read is paginated; `gone`: the object went meanwhile. */
    async read(
      client: DeclaredClient<Sdk>,
      name: string,
      target: string,
      ctx: CallContext,
    ): Promise<unknown> {
      let tags: unknown;
      let token: unknown;
      do {
        let objectGone = false;
        const answer = await calls.sendUnless(
          (err) => {
            if (t.none(err)) return true;
            objectGone = t.isGone(err);
            return objectGone;
          },
          ctx,
          group.read,
          name,
          tagRun(
            client,
            group.read,
            target,
            t.page === undefined || token === undefined ? {} : { [t.page.input]: token },
          ),
          detail,
        );
        // The tag set's own "none" (S3's NoSuchTagSet): no tags.
        if (answer === undefined) return objectGone ? gone : tags;
        const more = answer[declared.list];
        tags = Array.isArray(more)
          ? [...((tags as unknown[] | undefined) ?? []), ...more]
          : more === undefined
            ? tags
            : { ...(tags as Fields | undefined), ...(more as Fields) };
        token = t.page === undefined ? undefined : answer[t.page.output];
      } while (token !== undefined && token !== "");
      return tags;
    },
    /** The whole tag set written at once (declared.replace: S3's), none by the remove call. */
    replace(
      client: DeclaredClient<Sdk>,
      name: string,
      target: string,
      tags: Readonly<Record<string, string>>,
      ctx: CallContext,
    ): Promise<Fields> {
      const call = Object.keys(tags).length === 0 ? (group.remove ?? "") : group.set;
      return calls.send(
        ctx,
        call,
        name,
        tagRun(client, call, target, call === group.set ? tagged(tags) : {}),
        detail,
      );
    },
    /** Tag by tag: what is new or changed, and the keys to remove. */
    writes: (client: DeclaredClient<Sdk>, name: string, target: string, ctx: CallContext): TagWrites => ({
      tag: (tags) =>
        calls.send(ctx, group.set, name, tagRun(client, group.set, target, tagged(tags)), detail),
      untag: (keys) =>
        calls.send(
          ctx,
          group.remove ?? "",
          name,
          tagRun(client, group.remove ?? "", target, {
            [declared.keys ?? ""]:
              t.untagItem === undefined ? keys : keys.map((k) => ({ [t.untagItem ?? ""]: k })),
          }),
          detail,
        ),
    }),
  };
}
