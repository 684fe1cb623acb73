// What the generic resource reconciler needs from one AWS service's module (src/services/*):
// validate the spec, build a client for a usable decision, and CRUD in AWS. The reconciler owns
// identity, finalizers, policies, conditions and status; the module owns the AWS API.
import type { ResourceKind } from "../api/kinds.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { ResourceRef } from "../credentials/types.ts";
import type { Decision } from "../resolver/types.ts";

export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

export type Observation<O> = { readonly found: false } | { readonly found: true; readonly observed: O };

export interface ServiceModule<Spec extends object, Observed, Client> {
  readonly kind: ResourceKind;
  /** Validates `spec` (everything except identityRef matters to AWS); the message names the field. */
  parseSpec(spec: unknown): ParseResult<Spec>;
  /** The SDK client acting with the decision's identity, in its region and endpoint. */
  client(credentials: CredentialService, decision: Decision, resource: ResourceRef): Promise<Client>;
  read(client: Client, spec: Spec): Promise<Observation<Observed>>;
  /** Creates the resource; returns extra status fields (e.g. a bucket's location). */
  create(client: Client, spec: Spec, region: string): Promise<Readonly<Record<string, unknown>>>;
  /** Brings AWS to `desired`; returns the spec paths it changed. */
  update(client: Client, desired: Spec, observed: Observed): Promise<readonly string[]>;
  /** Deletes; "not-found" when it was already gone. */
  delete(client: Client, spec: Spec): Promise<"deleted" | "not-found">;
  /** Spec paths where AWS differs from `desired`. */
  diff(desired: Spec, observed: Observed): readonly string[];
  /** Fills spec fields the user left out with AWS's values (ACK late initialisation). */
  lateInitialize(
    spec: Spec,
    observed: Observed,
  ): { readonly spec: Spec; readonly initialized: readonly string[] };
  /** The spec that describes what AWS has (for `adopt`). */
  specFromObserved(observed: Observed, spec: Spec): Spec;
  arn(spec: Spec, region: string): string;
  /** The region AWS reports the resource in, when it reports one. */
  observedRegion(observed: Observed): string | undefined;
  /** Whether retrying cannot fix this AWS error. */
  isTerminal(err: unknown): boolean;
  /** A one-line, user-facing description of an AWS error (names the field and the fix). */
  describeError(err: unknown, spec: Spec): string;
}
