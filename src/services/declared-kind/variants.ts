// A kind whose objects AWS serves in two ways, told by the identifier (S3's directory buckets,
// `--x-s3`: listed by ListDirectoryBuckets, four configurations, tags through S3 Control): each
// variant is the kind's declaration with its own read, groups, ARN and tag calls
// (RuntimeDeclaration.variants), served by a module of its own; this file makes each variant's
// source and routes every call by the object's identifier.
import type { RuntimeDeclaration } from "../../codegen/declaration.ts";
import type { ServiceModule } from "../service-module.ts";
import type { DeclaredClient, DeclaredKindSource, DeclaredObserved, Fields, SdkClient } from "./source.ts";

type Module<Sdk> = ServiceModule<Fields, DeclaredObserved, DeclaredClient<Sdk>>;

/** Each variant's source: the kind's, with the variant's read, groups, ARN and tag calls. */
export function variantSources<Sdk extends SdkClient>(
  source: DeclaredKindSource<Sdk>,
): { readonly suffix: string; readonly source: DeclaredKindSource<Sdk> }[] {
  const { declaration, generated } = source;
  const runtime = declaration.runtime;
  return Object.entries(runtime.variants ?? {}).map(([key, v]) => {
    const resolved = generated.runtime.variants?.[key];
    if (resolved === undefined) throw new Error(`${declaration.kind}: the variant ${key} is not generated`);
    const tagsGroup = declaration.groups.find((g) => Object.values(g.fields).some((f) => f.form === "tags"));
    const kept = (set: string) => v.groups.includes(set) || set === tagsGroup?.set;
    // Its tags group: the other service's calls in place of the kind's.
    const tagCalls = (g: { set: string; read: string; remove?: string }) =>
      g.set === tagsGroup?.set ? { set: v.tags.set, read: v.tags.read, remove: v.tags.remove } : {};
    const variantRuntime: RuntimeDeclaration = {
      ...runtime,
      read: { call: v.read.call, output: v.read.output, answerId: v.read.answerId },
      arnScope: "regional",
      arnService: v.arn.service,
      arnResource: v.arn.resource,
      ...(v.iamService === undefined ? {} : { iamService: v.iamService }),
      tags: {
        resource: v.tags.resource,
        keys: v.tags.keys,
        list: v.tags.list,
        set: "Tags",
        client: { service: v.tags.service, account: v.tags.account },
        // The create is the kind's: its tags go where the kind's do.
        ...(runtime.tags?.inCreate === undefined ? {} : { inCreate: runtime.tags?.inCreate }),
      },
      ...(v.afterCreate === undefined ? {} : { afterCreate: v.afterCreate }),
      ...(v.read.region === undefined ? {} : { regionMember: v.read.region }),
      variants: {},
    };
    return {
      suffix: v.suffix,
      source: {
        ...source,
        declaration: {
          ...declaration,
          groups: declaration.groups.filter((g) => kept(g.set)).map((g) => ({ ...g, ...tagCalls(g) })),
          runtime: variantRuntime,
        },
        generated: {
          ...generated,
          fieldGroups: {
            ...generated.fieldGroups,
            groups: generated.fieldGroups.groups
              .filter((g) => kept(g.set))
              .map((g) => ({ ...g, ...tagCalls(g) })),
          },
          runtime: { ...generated.runtime, read: resolved.read, variants: {} },
        },
      },
    };
  });
}

/** The kind's module routing each call to the variant its object's identifier says, else `base`. */
export function byVariant<Sdk>(
  base: Module<Sdk>,
  variants: readonly { readonly suffix: string; readonly module: Module<Sdk> }[],
): Module<Sdk> {
  if (variants.length === 0) return base;
  const of = (spec: Fields): Module<Sdk> => {
    const name = base.identifier(spec);
    return variants.find((v) => name.endsWith(v.suffix))?.module ?? base;
  };
  const ofObserved = (observed: DeclaredObserved) => of(observed.fields);
  return {
    ...base,
    read: (client, spec, ctx) => of(spec).read(client, spec, ctx),
    readCreated: (client, spec, region, ctx) => {
      const m = of(spec);
      return m.readCreated === undefined
        ? m.read(client, spec, ctx)
        : m.readCreated(client, spec, region, ctx);
    },
    createdAt: async (client, spec, ctx) => of(spec).createdAt?.(client, spec, ctx),
    create: (client, spec, region, ownerTags, ctx, secrets) =>
      of(spec).create(client, spec, region, ownerTags, ctx, secrets),
    update: (client, desired, observed, ownerTags, ctx, secrets) =>
      of(desired).update(client, desired, observed, ownerTags, ctx, secrets),
    claim: (client, observed, ownerTags, ctx) => ofObserved(observed).claim(client, observed, ownerTags, ctx),
    delete: (client, spec, ctx, annotations) => of(spec).delete(client, spec, ctx, annotations),
    diff: (desired, observed) => of(desired).diff(desired, observed),
    lateInitialize: (spec, observed) => of(spec).lateInitialize(spec, observed),
    specFromObserved: (observed, spec) => of(spec).specFromObserved(observed, spec),
    arn: (spec, region, account) => of(spec).arn(spec, region, account),
    observedRegion: (observed) => ofObserved(observed).observedRegion(observed),
    isTerminal: (err) => [base, ...variants.map((v) => v.module)].some((m) => m.isTerminal(err)),
    describeError: (err, spec) => of(spec).describeError(err, spec),
    ...(base.afterUpdate === undefined
      ? {}
      : {
          afterUpdate: (
            desired: Fields,
            observed: DeclaredObserved,
            ownerTags: Readonly<Record<string, string>>,
          ) => (of(desired).afterUpdate ?? base.afterUpdate)?.(desired, observed, ownerTags) ?? observed,
        }),
  };
}
