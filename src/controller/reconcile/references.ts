// Step 2, after the spec is parsed: ACK's references to served kinds (`dbSubnetGroupRef`)
// resolved into their plain fields (`dbSubnetGroupName`) as references.ts judges them — the
// referenced object read from the apiserver now, its placement decided now, its AWS name from
// its spec. Nothing is called in AWS until every reference resolves; what can only be judged
// with the referrer's credentials (the account STS names, the object's tags in AWS) is left in
// `checks` for reference-check.ts, which runs once converge has connected.
import { parseReadOnly, resourceAnnotations } from "../../api/annotations.ts";
import type { Decision } from "../../resolver/types.ts";
import { isServedReference, servedKindOf } from "../../services/references.ts";
import type { FailureState } from "../ack-conditions.ts";
import type { Owner } from "../ownership.ts";
import {
  asSeenBy,
  judgeReference,
  type Referenced,
  type ReferenceJudgement,
  type Referrer,
  type SetReference,
  setReferences,
  withValueAt,
} from "../references.ts";
import { resourceTypeOf } from "../resource-type.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import { recordedId } from "./locate.ts";
import { failed, type Outcome } from "./result.ts";

/** A filled plain field's place in the spec: fields, and list indexes. */
export type FilledPath = readonly (string | number)[];

/** One reference judged here, to be checked in AWS once the referrer has connected. */
export interface ReferenceCheck {
  readonly ref: SetReference;
  /** The referenced resource, as its ownership tags in AWS must name it. */
  readonly owner: Owner;
  /** Its spec as the apiserver has it: its module reads the AWS object it names. */
  readonly spec: unknown;
  /** The AWS name it lends (the plain field's value). */
  readonly awsName: string;
  /** The ID AWS assigned it, as its status records it (a KMS key's): the object the check reads. */
  readonly id?: string;
  readonly decision: Decision;
  readonly readOnly: boolean;
}

/**
 * A reference needed only after the create (ReferenceDeclaration.afterCreate) that cannot be
 * resolved yet: the top-level spec field holding it is left as AWS has it, and the resource says
 * why it is not Synced.
 */
export interface HeldReference {
  readonly field: string;
  readonly state: FailureState;
}

/** A spec with the plain fields its references filled (for AWS calls only, never written back). */
export interface Resolved<Spec> {
  readonly spec: Spec;
  /**
   * Where the plain fields filled are, as spec paths (`["dbSubnetGroupName"]`,
   * `["sseSpecification", "kmsMasterKeyID"]`, `["policies", 0]`): never written back.
   */
  readonly filled: readonly FilledPath[];
  readonly checks: readonly ReferenceCheck[];
  /** References needed after the create that wait: their fields are left as AWS has them. */
  readonly held: readonly HeldReference[];
}

/** Nothing referenced. */
export const noReferences = { filled: [], checks: [], held: [] } as const;

/** The spec with each set reference's plain field filled, or why it cannot be yet. */
export async function resolveReferences<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
): Promise<Resolved<Spec> | Outcome> {
  const served = (env.module.references ?? []).filter(isServedReference);
  const set = setReferences(spec as Record<string, unknown>, served, a.ref.namespace);
  if (set.length === 0) return { spec, ...noReferences };
  let filled: unknown = spec;
  const checks: ReferenceCheck[] = [];
  const held: HeldReference[] = [];
  const resolvedRefs: SetReference[] = [];
  for (const ref of set) {
    // The declared reference it came from (its service and kind): the kind's API resource.
    const declared = served[ref.source];
    const kind = declared === undefined ? undefined : servedKindOf(declared);
    const module = kind === undefined ? undefined : await env.references?.moduleOf(ref.kind);
    if (declared === undefined || kind === undefined || module === undefined) {
      // Fail closed: a reference this controller cannot follow fills nothing.
      return failed({
        kind: "terminal",
        reason: "ReferenceNotResolved",
        message: `${ref.path} names a ${ref.kind}, which this controller does not resolve: set spec.${ref.plain} instead`,
      });
    }
    const afterCreate = declared.afterCreate === true;
    const identifierField = module.identifierField.replace(/^spec\./, "");
    const obj = await env.store.referenced(resourceTypeOf(kind), ref.namespace, ref.name, a.call.signal);
    const synced = obj?.status?.conditions?.find((c) => c.type === "ACK.ResourceSynced");
    // A kind named by an ID AWS assigns (a KMS key) lends the ID its status records: only a hint,
    // which reference-check.ts holds to the object's tags in AWS, as any lent name.
    const assigned = module.assigned;
    const id = assigned === undefined || obj === undefined ? undefined : recordedId(obj.status, assigned);
    const lent =
      id === undefined || assigned === undefined ? obj?.spec : assigned.withId(obj?.spec ?? {}, id);
    const decision = obj === undefined ? undefined : env.decisions.decide(obj, env.config.snapshot());
    const target: Referenced | undefined =
      obj === undefined || decision === undefined
        ? undefined
        : {
            spec: lent,
            generation: obj.metadata.generation,
            deleting: obj.metadata.deletionTimestamp !== undefined,
            synced:
              synced === undefined
                ? undefined
                : {
                    status: synced.status,
                    ...(synced.observedGeneration === undefined
                      ? {}
                      : { observedGeneration: synced.observedGeneration }),
                  },
            decision,
          };
    const referrer = {
      kind: env.kindName,
      namespace: a.ref.namespace,
      account: a.decision.account,
      region: a.decision.region,
    };
    const judged = judgeReference(
      ref,
      referrer,
      target,
      identifierField,
      env.references?.allowCrossNamespace ?? false,
      module.regionless === true,
      assigned === undefined ? "spec" : "status",
      // Needed after the create, an object AWS named need only have its ID recorded: two
      // resources naming each other each get made, then each finds the other's.
      !(afterCreate && assigned !== undefined),
    );
    if (!judged.ok && afterCreate && judged.state.kind !== "terminal") {
      const field = String(ref.at[0] ?? ref.plain);
      held.push({ field, state: asSeenBy(judged, ref, referrer).state });
      continue;
    }
    if (!judged.ok) return refusedAsSeen(a, judged, ref, referrer, env.waitRequeueMs);
    // A plain field taking the object's ARN (a role's): composed from its spec where it is decided now.
    let value = judged.value;
    if (declared.fromSpec !== undefined) {
      // A field of its spec (an IAM Policy's document for a queue's access policy), as Synced.
      const from = obj?.spec?.[declared.fromSpec];
      if (typeof from !== "string" || from === "") {
        return failed({
          kind: "terminal",
          reason: "ReferenceNotResolved",
          message: `${ref.path} names ${ref.kind} ${ref.namespace}/${ref.name}, whose spec.${declared.fromSpec} is not set: set it there, or set spec.${ref.plain} and remove the reference`,
        });
      }
      value = from;
    } else if (declared.arn === true) {
      const account = decision?.account ?? null;
      if (account === null) {
        return failed({
          kind: "terminal",
          reason: "ReferenceNotResolved",
          message: `${ref.path} names ${ref.kind} ${ref.namespace}/${ref.name}, whose ARN needs its account, which its identity does not say (static keys): set spec.${ref.plain} to the ARN and remove the reference`,
        });
      }
      value = module.arn(lent as never, decision?.region ?? a.decision.region ?? "", account);
    }
    filled = withValueAt(filled, ref.at, value);
    resolvedRefs.push(ref);
    // judged ok: the object and its decision exist.
    const readOnlyAnnotation = obj?.metadata.annotations?.[resourceAnnotations.readOnly];
    const readOnly = readOnlyAnnotation === undefined ? undefined : parseReadOnly(readOnlyAnnotation);
    checks.push({
      ref,
      owner: {
        kind: ref.kind,
        namespace: ref.namespace,
        name: ref.name,
        uid: obj?.metadata.uid ?? "",
      },
      spec: obj?.spec,
      // What the module reads it by: its name (a field of its spec copied is no name).
      awsName: declared.fromSpec === undefined ? value : judged.value,
      ...(id === undefined ? {} : { id }),
      decision: decision as Decision,
      readOnly: readOnly?.ok === true && readOnly.value,
    });
  }
  // A field held is AWS's as a whole: nothing of it is filled either.
  const heldFields = new Set(held.map((h) => h.field));
  const kept = checks.filter((c) => !heldFields.has(String(c.ref.at[0])));
  return {
    spec: filled as Spec,
    filled: resolvedRefs.filter((r) => !heldFields.has(String(r.at[0]))).map((r) => r.at),
    checks: kept,
    held,
  };
}

/**
 * A refused reference as the referrer may see it (references.ts, asSeenBy): what another
 * namespace's object is kept from its conditions goes to the debug log, for the operators.
 */
export function refusedAsSeen(
  a: Attempt,
  refused: Extract<ReferenceJudgement, { readonly ok: false }>,
  ref: SetReference,
  referrer: Referrer,
  waitRequeueMs: number,
): Outcome {
  const seen = asSeenBy(refused, ref, referrer);
  if (seen !== refused) {
    a.log.debug(
      {
        event: "reference.refused",
        reference: ref.path,
        reason: refused.state.reason,
        detail: refused.state.message,
      },
      "a reference into another namespace was refused; its condition says only ReferenceUnavailable",
    );
  }
  return failed(seen.state, seen.wait ? waitRequeueMs : "none");
}
