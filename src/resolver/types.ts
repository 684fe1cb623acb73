// The resolver's public contract: what goes in, what comes out.
// The resolver is pure (DESIGN §3): no I/O, no clock, no globals. Everything it may look at
// is in ResolveInput; everything it concludes is in Decision.

/** Which of the four answers the resolver gave. Only `use` lets a reconciler call AWS. */
export type Outcome = "use" | "deny" | "conflict" | "wait";

/** Which rule of DESIGN §3.1 chose (or refused) the identity. */
export type DecisionSource = "identityRef" | "iamRoleSelector" | "teamCARM" | "accountCARM" | "default";

/** Condition reason a non-`use` decision maps to (DESIGN §3.3). */
export type DecisionReason =
  | "Selected"
  | "IdentityUnavailable"
  | "IdentityConflict"
  | "IdentityNotPermitted"
  | "AccountDrift"
  | "RegionDrift";

export type FeatureGateName = "IAMRoleSelector" | "TeamLevelCARM" | "ServiceLevelCARM" | "ResourceLevelCARM";
export type FeatureGates = Readonly<Record<FeatureGateName, boolean>>;

/** Controller settings that shape decisions (flags of `crossrole run` / `crossrole explain`). */
export interface Settings {
  readonly featureGates: FeatureGates;
  /** `--enable-carm` (default true). IAMRoleSelector=true with CARM on is a startup error. */
  readonly enableCARM: boolean;
  /** `--aws-region` / AWS_REGION. */
  readonly defaultRegion: string | null;
  /** `--aws-endpoint-url`. */
  readonly defaultEndpoint: string | null;
  /** The controller's own account (online: from sts:GetCallerIdentity; offline: a flag). */
  readonly controllerAccount: string | null;
  /** Where the CARM ConfigMaps, static-identity Secrets and the controller live. */
  readonly systemNamespace: string;
  /** `--account-drift-policy`. */
  readonly accountDriftPolicy: "block" | "recreate";
}

/** Minimal object metadata the resolver reads. */
export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly uid?: string;
  readonly deletionTimestamp?: string;
}

/** Any managed AWS resource (Bucket, Queue, ...), as far as resolution cares. */
export interface ResourceObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly spec?: { readonly identityRef?: { readonly kind: string; readonly name: string } } & Readonly<
    Record<string, unknown>
  >;
  readonly status?: {
    readonly ackResourceMetadata?: {
      readonly arn?: string;
      readonly ownerAccountID?: string;
      readonly region?: string;
    };
  } & Readonly<Record<string, unknown>>;
}

/** One step of the human-readable trace: which rule was consulted, what it found. */
export interface TraceStep {
  /** Short rule name, e.g. "identityRef", "IAMRoleSelector", "CARM team map", "region". */
  readonly rule: string;
  /** taken: this rule decided; skipped: did not apply; failed: applied and refused; info: context. */
  readonly result: "taken" | "skipped" | "failed" | "info";
  /** A sentence a person can read. */
  readonly detail: string;
}

/** Parameters of one hop as they will be sent to AWS (no secret material, ever). */
export interface HopParameters {
  readonly sessionName?: string;
  readonly durationSeconds?: number;
  readonly externalID?: string;
  readonly inlinePolicy?: string;
  readonly policyARNs?: readonly string[];
  readonly sessionTags?: readonly { readonly key: string; readonly value: string }[];
  readonly transitiveTagKeys?: readonly string[];
  readonly sourceIdentity?: string;
  readonly tenantSessionTags?: boolean;
  /** Static identity: the Secret's name in the system namespace (never its data). */
  readonly secretRef?: string;
  /** Service-account identity. */
  readonly serviceAccountName?: string;
  readonly audiences?: readonly string[];
  readonly expirationSeconds?: number;
}

/** One hop of an identity chain, first hop = the base credentials, last = what AWS sees. */
export interface ChainHop {
  readonly kind:
    | "AWSControllerIdentity"
    | "AWSStaticIdentity"
    | "AWSRoleIdentity"
    | "AWSServiceAccountIdentity"
    | "IAMRoleSelector"
    | "CARM";
  /** Object name (`default` for the controller identity, the map key for CARM). */
  readonly name: string;
  readonly namespace?: string;
  /** Role assumed at this hop; absent for controller/static credentials. */
  readonly roleARN?: string;
  readonly resourceVersion?: string;
  readonly parameters: HopParameters;
}

/** Something a decision warns about; it does not stop the decision. */
export interface DecisionWarning {
  /** The Warning Event's reason: AnnotationIgnored, UnknownRegion. */
  readonly reason: string;
  /** One sentence with the fix. */
  readonly message: string;
}

export interface Decision {
  readonly outcome: Outcome;
  /** The rule that decided; null when nothing could be attributed (e.g. malformed resource). */
  readonly source: DecisionSource | null;
  readonly reason: DecisionReason;
  /** The final role ARN; null for the controller's/static credentials or a non-`use` outcome. */
  readonly roleARN: string | null;
  /** Account the resource lands in: the final role ARN's account, else the controller account. */
  readonly account: string | null;
  readonly region: string | null;
  readonly endpoint: string | null;
  readonly selector: { readonly name: string; readonly resourceVersion: string } | null;
  readonly chain: readonly ChainHop[];
  /** One line, suitable for a condition message / Event. */
  readonly message: string;
  readonly trace: readonly TraceStep[];
  /**
   * What the resource asks for that is ignored (e.g. its owner-account-id annotation with
   * ResourceLevelCARM off) or looks wrong (a region AWS does not know): Warning Events on the
   * resource, and a note on its conditions.
   */
  readonly warnings: readonly DecisionWarning[];
  /**
   * Set on an otherwise usable decision when the recorded region/account differs from the
   * resolved one and the policy blocks (DESIGN §3.1 4–5): the reconciler must go ACK.Terminal
   * with `drift.message` and not call AWS.
   */
  readonly drift: { readonly kind: "region" | "account"; readonly message: string } | null;
}

// ---- Snapshot input and problems (added with buildSnapshot) ----

/**
 * The raw objects a snapshot is built from, exactly as listed from the cluster or read from
 * manifests. Entries are `unknown` on purpose: buildSnapshot validates every one and reports
 * what it excludes instead of trusting the shape.
 */
export interface ConfigObjects {
  readonly namespaces?: readonly unknown[];
  /** Only `ack-role-account-map`, `ack-role-team-map`, `ack-carm-map` in the system namespace count. */
  readonly configMaps?: readonly unknown[];
  readonly iamRoleSelectors?: readonly unknown[];
  /** Objects of all four identity kinds, told apart by `kind`. */
  readonly identities?: readonly unknown[];
}

/** Names an object in a problem or message. */
export interface ObjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** Something wrong with an input object: what, where, and how to fix it. */
export interface SnapshotProblem {
  readonly object: ObjectRef;
  /** Field path inside the object, e.g. `spec.sourceIdentityRef`, `data.owner-account-id/abc`. */
  readonly field: string;
  /** error: the object (or entry) was excluded; warning: kept, but probably not what was meant. */
  readonly severity: "error" | "warning";
  /** Why it is wrong, prefixed with the object (`ConfigMap ack-system/ack-role-account-map: ...`). */
  readonly message: string;
  readonly fix: string;
  /**
   * The offending value as written (strings as they are, anything else as JSON; bounded), when
   * one value is at fault: what an Event or log line shows next to the field.
   */
  readonly value?: string;
  /**
   * The Warning Event's reason, when the kind of object alone does not say what is wrong: a
   * CARM key that is valid but never read is `UnusedCarmKey`, not `InvalidAccountMapEntry`.
   */
  readonly reason?: string;
}
