// The members of a ServiceModule (service-module.ts) the generic runtime builds the same way for
// every kind: the client with its region (and account), the paths an update changed, the spec
// `adopt` writes, how errors are judged and described, and the spec an ACK adoption address names.
import type { ClientFactory, Destroyable } from "../credentials/client-pool.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { ResourceRef } from "../credentials/types.ts";
import type { Decision } from "../resolver/types.ts";
import type { ServiceError } from "./service-error.ts";
import type { ParseResult, ServiceModule } from "./service-module.ts";

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

/** The spec paths of a diff (what `update` and `diff` answer). */
export function pathsOf(differences: readonly { readonly path: string }[]): string[] {
  return differences.map((d) => d.path);
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
