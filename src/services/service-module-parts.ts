// The members of a ServiceModule (service-module.ts) that every service builds the same way from
// its own files: the client with its region, the identifier from its spec field, `read` from the
// CRUD file's answer, the paths an update changed, `diff` and `lateInitialize` over the spec
// fields of what AWS has, the spec `adopt` writes, and how errors are judged and described. Each
// module.ts passes what is its own (its SDK client factory, its CRUD and diff functions, its
// error class) and states the rest.
import type { SpecTagField } from "../codegen/spec-tags.ts";
import type { ClientFactory, Destroyable } from "../credentials/client-pool.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { ResourceRef } from "../credentials/types.ts";
import type { Decision } from "../resolver/types.ts";
import type { ServiceError } from "./service-error.ts";
import type { Observation, ParseResult, ServiceModule } from "./service-module.ts";

/** An SDK client that says which region it acts in (every AWS SDK v3 client does). */
interface RegionalSdkClient extends Destroyable {
  readonly config: { region(): Promise<string> };
}

/**
 * `client` for a service whose calls need the region they act in: the pooled SDK client of
 * `factory` under `key` ("sqs"), beside the region it was built for.
 */
export function regionalClient<Key extends string, Sdk extends RegionalSdkClient>(
  factory: ClientFactory<Sdk>,
  key: Key,
) {
  return async (
    credentials: CredentialService,
    decision: Decision,
    resource: ResourceRef,
  ): Promise<{ readonly [K in Key]: Sdk } & { readonly region: string }> => {
    const sdk = await credentials.client(factory, decision, resource);
    return { [key]: sdk, region: await sdk.config.region() } as { [K in Key]: Sdk } & { region: string };
  };
}

/**
 * regionalClient's client with the account it acts in, for a kind AWS addresses by an ARN naming
 * it: the decision's account, or the caller's (STS GetCallerIdentity, cached per identity).
 */
export function accountClient<Key extends string, Sdk extends RegionalSdkClient>(
  factory: ClientFactory<Sdk>,
  key: Key,
) {
  const regional = regionalClient(factory, key);
  return async (credentials: CredentialService, decision: Decision, resource: ResourceRef) => {
    const client = await regional(credentials, decision, resource);
    const account = decision.account ?? (await credentials.callerIdentity(decision, resource)).account;
    return { ...client, account };
  };
}

/**
 * What a kind's generated `<prefix>Declared` gives its module: `identifier` and `identifierField`
 * (the spec field naming the AWS object, "queueName", taken as written) and `specTags`.
 */
export function fromDeclared<Field extends string>(declared: {
  readonly identifier: Field;
  readonly specTags?: SpecTagField;
}) {
  const field = declared.identifier;
  return {
    identifier: (spec: { readonly [F in Field]: string }): string => spec[field],
    identifierField: `spec.${field}`,
    ...(declared.specTags === undefined ? {} : { specTags: declared.specTags }),
  };
}

/**
 * `observed` without `keys`, the fields only AWS reports (its ARN, URL, region, raw
 * description): the spec fields diff.ts compares.
 */
export function withoutKeys<Observed extends object, Key extends keyof Observed & string>(
  observed: Observed,
  keys: readonly Key[],
): Omit<Observed, Key> {
  const dropped: ReadonlySet<string> = new Set(keys);
  return Object.fromEntries(Object.entries(observed).filter(([k]) => !dropped.has(k))) as Omit<Observed, Key>;
}

/** What a CRUD file's read answers: the object under its own key (`queue`), or nothing of ours. */
export type ReadAnswer<Key extends string, Observed> =
  | { readonly found: false; readonly heldElsewhere?: string }
  | ({ readonly found: true } & { readonly [K in Key]: Observed });

/** A CRUD file's read answer as the reconciler's Observation. */
export function observationOf<Key extends string, Observed>(
  answer: ReadAnswer<Key, NoInfer<Observed>>,
  key: Key,
): Observation<Observed> {
  if (answer.found) return { found: true, observed: answer[key] };
  return answer.heldElsewhere === undefined
    ? { found: false }
    : { found: false, heldElsewhere: answer.heldElsewhere };
}

/** The spec paths of a diff (what `update` and `diff` answer). */
export function pathsOf(differences: readonly { readonly path: string }[]): string[] {
  return differences.map((d) => d.path);
}

/**
 * `diff` and `lateInitialize` from a service's diff.ts, which compares spec fields: both are
 * given the spec fields of what AWS has (`fieldsOf` drops what only AWS reports: its ARN, URL,
 * region, raw description) and answer spec paths.
 */
export function specFieldComparison<Fields extends object, Observed>(
  fieldsOf: (observed: Observed) => Fields,
  diff: (desired: Fields, observed: Fields) => readonly { readonly path: string }[],
  lateInitialize: <Spec extends Fields>(
    spec: Spec,
    observed: Fields,
  ) => { readonly spec: Spec; readonly initialized: readonly string[] },
) {
  return {
    diff: (desired: Fields, observed: Observed): readonly string[] =>
      pathsOf(diff(desired, fieldsOf(observed))),
    lateInitialize<Spec extends Fields>(
      spec: Spec,
      observed: Observed,
    ): { readonly spec: Spec; readonly initialized: readonly string[] } {
      const r = lateInitialize(spec, fieldsOf(observed));
      return { spec: r.spec, initialized: r.initialized.map((f) => `spec.${f}`) };
    },
  };
}

/**
 * The spec `adopt` writes for what AWS has: its spec `fields`, the user's tags under `tagsKey`
 * (left out when there are none: the ownership tags are the reconciler's), and the identityRef
 * of the spec it replaces (AWS knows nothing of it).
 */
export function adoptedSpec<
  Spec extends { readonly identityRef?: unknown },
  TagsKey extends keyof Spec & string,
>(
  fields: NoInfer<Omit<Spec, TagsKey | "identityRef">>,
  tagsKey: TagsKey,
  userTags: Spec[TagsKey] | undefined,
  spec: Spec,
): Spec {
  return {
    ...fields,
    ...(userTags ? { [tagsKey]: userTags } : {}),
    ...(spec.identityRef ? { identityRef: spec.identityRef } : {}),
  } as Spec;
}

/**
 * `isTerminal` and `describeError` for a service whose errors are `E`: any other failure is
 * described as `classifyReading` words it, the failure of a read of the spec's object.
 */
export function errorReporting<Spec extends object, E extends ServiceError>(
  isServiceError: (err: unknown) => err is E,
  classifyReading: (err: unknown, spec: Spec) => E,
): Pick<ServiceModule<Spec, unknown, unknown>, "isTerminal" | "describeError"> {
  return {
    isTerminal: (err) => isServiceError(err) && err.terminal,
    describeError: (err, spec) => (isServiceError(err) ? err : classifyReading(err, spec)).message,
  };
}

/**
 * An adoption seed (ServiceModule.adoptionSeed) from an AWS address ACK's adoption fields give
 * (a queue's URL, a topic's ARN): the spec naming the object, unless the address is no such
 * address or names another account or region than the resource's decision. An adoption must
 * never pull another account's object into this one.
 */
export function seedFromAddress(
  key: string,
  address: string,
  located:
    | { readonly account: string; readonly region?: string | undefined; readonly name: string }
    | undefined,
  identifierField: string,
  at: { readonly region: string; readonly account: string | null },
): ParseResult<Record<string, unknown>> {
  if (located === undefined || located.name === "") {
    return {
      ok: false,
      message: `${key} ${JSON.stringify(address)} is not one; write the ${key} AWS reports`,
    };
  }
  if (at.account !== null && located.account !== at.account) {
    return {
      ok: false,
      message: `${key} names account ${located.account}, but this resource acts in account ${at.account}: an adoption never takes another account's object`,
    };
  }
  if (located.region !== undefined && at.region !== "" && located.region !== at.region) {
    return {
      ok: false,
      message: `${key} names region ${located.region}, but this resource acts in ${at.region}: set services.k8s.aws/region or adopt the object in its region`,
    };
  }
  return { ok: true, value: { [identifierField]: located.name } };
}
