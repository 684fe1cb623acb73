// The controller of the controller's own records (record-store.ts), on the leader.
//
// Tombstones (tombstones.ts) are swept: for each, every
// `sweepPeriodMs` until it expires, the object its create named is looked up in the intent's
// account and region with the identity the resolver decides for the released resource now, and
// deleted when its ownership tags carry the released uid: it was made by a create that landed
// after its resource was let go. Nothing else is ever deleted (untagged, another uid's, or a
// decision that no longer reaches the intent's account: then it says so and tries again).
// Tombstones are records in the system namespace, so a restarted or new leader resumes the sweep.
// What was found is said on the tombstone (an Event), in one log line and in
// crossrole_late_creates_deleted_total{kind}.
//
// An object AWS cannot tag (owned-objects.ts) is the late create's when the records give it to no
// one and AWS made it inside the tombstone's window.
//
// A record of referrers (reference-uses.ts) whose referenced object is gone (its finalizer
// removed by hand: its release never dropped the record) holds nothing; it is deleted; so is the
// record of an untaggable object whose owner is gone.

import type { Logger } from "pino";
import { Counter, Gauge, type Registry } from "prom-client";
import { ownershipTagKeys } from "../../api/ownership-tags.ts";
import type { CredentialService } from "../../credentials/service.ts";
import type { Snapshot } from "../../resolver/snapshot-types.ts";
import type { Controller } from "../../runtime/controller.ts";
import type { EventRecorder } from "../../runtime/events.ts";
import type { Informer } from "../../runtime/informer.ts";
import type { KubeObject } from "../../runtime/kube-object.ts";
import type { Manager } from "../../runtime/manager.ts";
import type { ReconcileContext, ReconcileRequest, Result } from "../../runtime/reconcile.ts";
import type { CallContext } from "../../services/call-context.ts";
import type { AnyServiceModule } from "../../services/catalog.ts";
import { createdWithin } from "../create-intent.ts";
import type { DecisionMemo } from "../decision-memo.ts";
import { describeOwnership, judgeOwnership, type Ownership, ownerName } from "../ownership.ts";
import { OwnedObjects, ownedEntryOf, ownedKindOf } from "./owned-objects.ts";
import { type RecordObject, type RecordStore, recordLabel } from "./record-store.ts";
import { referencedAnnotation, referrersRecordPrefix } from "./reference-uses.ts";
import { parseTombstone, type Tombstone, tombstoneKey, tombstoneRecordName } from "./tombstones.ts";

/** How often each tombstone's account is looked at while a late create can still land. */
export const defaultSweepPeriodMs = 10_000;

export interface RecordsControllerOptions {
  readonly manager: Manager;
  readonly records: RecordStore;
  readonly informer: Informer<RecordObject>;
  /** Whether the object a referrers record is about is gone (asked of the apiserver). */
  readonly referencedGone: (kind: string, namespace: string, name: string, uid: string) => Promise<boolean>;
  readonly moduleOf: (kind: string) => Promise<AnyServiceModule | undefined>;
  readonly decisions: DecisionMemo;
  readonly snapshot: () => Snapshot;
  /** Whether a namespace exists now (the configuration cache's view). */
  readonly namespaceExists: (namespace: string) => boolean;
  readonly credentials: CredentialService;
  readonly events: EventRecorder;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly sweepPeriodMs?: number;
  readonly now?: () => Date;
}

/** The resource a tombstone remembers, as the resolver reads one. */
function resourceOf(t: Tombstone): KubeObject & { spec?: unknown } {
  return {
    apiVersion: t.apiVersion,
    kind: t.owner.kind,
    metadata: {
      name: t.owner.name,
      namespace: t.owner.namespace,
      uid: t.owner.uid,
      labels: { ...t.object.labels },
      annotations: { ...t.object.annotations },
    },
    spec: t.object.spec,
  };
}

type Sweep =
  | { readonly found: "deleted"; readonly arn: string }
  | { readonly found: "nothing" }
  | { readonly found: "not-ours"; readonly why: string }
  | { readonly found: "unreachable"; readonly why: string };

export function addRecordsController(o: RecordsControllerOptions): Controller {
  const log = o.logger.child({ controller: "records" });
  const owned = new OwnedObjects(o.records);
  const now = o.now ?? (() => new Date());
  const period = o.sweepPeriodMs ?? defaultSweepPeriodMs;
  const deleted = new Counter({
    name: "crossrole_late_creates_deleted_total",
    help: "Objects deleted in AWS because their create landed after their resource was let go, by kind",
    labelNames: ["kind"] as const,
    registers: [o.registry],
  });
  new Gauge({
    name: "crossrole_tombstones",
    help: "Released create intents kept while their create can still land (records in the system namespace)",
    registers: [o.registry],
    collect() {
      this.set(o.records.list("tombstone").length);
    },
  });
  /** What was last said per tombstone: a line only when it changes. */
  const said = new Map<string, string>();
  const say = (name: string, what: string, line: () => void) => {
    if (said.get(name) === what) return;
    said.set(name, what);
    line();
  };

  async function sweep(t: Tombstone, ctx: ReconcileContext | undefined): Promise<Sweep> {
    const module = await o.moduleOf(t.owner.kind);
    if (module === undefined) return { found: "unreachable", why: `kind ${t.owner.kind} is not served` };
    const resource = resourceOf(t);
    // Decided again under today's configuration (a grant revoked since is respected); only once
    // the namespace itself is gone, when nothing can be decided for it, the identity it was let go
    // with stands in: it made the object, in the account the intent names, and nothing but an
    // object carrying this uid's tags is ever deleted with it.
    const decision =
      !o.namespaceExists(t.owner.namespace) && t.decision !== undefined
        ? t.decision
        : o.decisions.decide(resource, o.snapshot());
    if (decision.outcome !== "use") {
      return {
        found: "unreachable",
        why: `its identity decision is ${decision.outcome}: ${decision.message}`,
      };
    }
    if (decision.region !== t.region) {
      return { found: "unreachable", why: `it is decided into region ${decision.region}, not ${t.region}` };
    }
    const ref = { namespace: t.owner.namespace, kind: t.owner.kind, name: t.owner.name };
    const account = decision.account ?? (await o.credentials.callerIdentity(decision, ref)).account;
    if (account !== t.account) {
      return { found: "unreachable", why: `its identity acts in account ${account}, not ${t.account}` };
    }
    const spec = module.parseSpec(t.object.spec);
    if (!spec.ok) return { found: "unreachable", why: `its spec no longer parses: ${spec.message}` };
    const client = await module.client(o.credentials, decision, ref);
    const call = { ...(ctx?.signal ? { signal: ctx.signal } : {}), ...(ctx?.log ? { log: ctx.log } : {}) };
    // A kind named by an ID AWS assigns (a KMS key) is the object tagged with this uid, if any.
    const assigned = module.assigned;
    const [id] =
      assigned === undefined
        ? [undefined]
        : await assigned.findTagged(client, ownershipTagKeys.ownerUid, t.owner.uid, call);
    if (assigned !== undefined && id === undefined) return { found: "nothing" };
    const named = assigned === undefined || id === undefined ? spec.value : assigned.withId(spec.value, id);
    const seen = await module.read(client, named, call);
    if (!seen.found) return { found: "nothing" };
    const ownership =
      module.untaggable === true
        ? await untaggedLateCreate(t, module, named, client, call)
        : judgeOwnership(module.tagsOf(seen.observed), t.owner);
    if (ownership.kind !== "ours") return { found: "not-ours", why: describeOwnership(ownership) };
    await module.delete(client, named, call, t.object.annotations);
    return { found: "deleted", arn: module.arn(named, t.region, t.account) };
  }

  /**
   * Whose an object AWS cannot tag is, for a tombstone's sweep: another resource's where the
   * records say so (owned-objects.ts); none recorded, the released create's where AWS made it
   * between the intent and the tombstone's end (no create signed inside the window lands after).
   */
  async function untaggedLateCreate(
    t: Tombstone,
    module: AnyServiceModule,
    spec: unknown,
    client: unknown,
    call: CallContext,
  ): Promise<Ownership> {
    const object = {
      kind: ownedKindOf(module.kind),
      account: t.account,
      region: t.region,
      identifier: t.awsName,
    };
    const judged = judgeOwnership(await owned.tagsOf(object, call.signal), t.owner);
    if (judged.kind !== "untagged") return judged;
    const made = await module.createdAt?.(client, spec as never, call);
    const requested = Date.parse(t.requestedAt);
    const madeInWindow =
      made !== undefined && createdWithin(requested, made, Date.parse(t.until) - requested);
    return madeInWindow ? { kind: "ours" } : judged;
  }

  /**
   * An owned-object record whose owner is gone (its finalizer removed by hand) is dropped; one of a
   * retained object stays, as the object's tags would.
   */
  async function collectOwned(record: RecordObject, ctx: ReconcileContext | undefined): Promise<Result> {
    const entry = ownedEntryOf(record);
    if (entry?.retained !== undefined) return {};
    const owner = entry?.owner;
    const gone =
      owner === undefined || (await o.referencedGone(owner.kind, owner.namespace, owner.name, owner.uid));
    if (!gone) return {};
    log.info(
      { event: "records.dropped", record: record.metadata.name, owner: owner && ownerName(owner) },
      "the owner of an untaggable object is gone: its record dropped",
    );
    await o.records.delete(record.metadata.name, ctx?.signal);
    return {};
  }

  /** A referrers record whose referenced object is gone is dropped. */
  async function collect(record: RecordObject, ctx: ReconcileContext | undefined): Promise<Result> {
    const uid = record.metadata.name.slice(referrersRecordPrefix.length);
    const named = /^(\S+) ([^/\s]+)\/(\S+)$/.exec(record.metadata.annotations?.[referencedAnnotation] ?? "");
    const gone =
      named === null || (await o.referencedGone(named[1] ?? "", named[2] ?? "", named[3] ?? "", uid));
    if (!gone) return {};
    log.info(
      { event: "records.dropped", record: record.metadata.name, referenced: named?.[0] },
      "the referenced object is gone: its record of referrers dropped",
    );
    await o.records.delete(record.metadata.name, ctx?.signal);
    return {};
  }

  const reconcile = async (req: ReconcileRequest, ctx?: ReconcileContext): Promise<Result> => {
    const record = o.records.cached(req.name);
    if (record === undefined) {
      said.delete(req.name);
      return {};
    }
    const type = record.metadata.labels?.[recordLabel];
    if (type === "referrers") return collect(record, ctx);
    if (type === "owned") return collectOwned(record, ctx);
    if (type !== "tombstone") return {};
    const parsed = parseTombstone(record);
    if (!parsed.ok) {
      log.warn({ event: "tombstone.malformed", record: req.name, why: parsed.why }, "tombstone dropped");
      await o.records.delete(req.name, ctx?.signal);
      return {};
    }
    const t = parsed.value;
    const what = `${t.owner.kind} ${t.owner.namespace}/${t.owner.name}`;
    const fields = {
      event: "tombstone.sweep",
      resource: what,
      uid: t.owner.uid,
      account: t.account,
      region: t.region,
    };
    const swept = await sweep(t, ctx);
    if (swept.found === "deleted") {
      deleted.inc({ kind: t.owner.kind });
      log.warn(
        { ...fields, event: "tombstone.deleted", arn: swept.arn },
        "a create landed after its resource was let go: deleted what it made",
      );
      o.events.event(
        record,
        "Warning",
        "LateCreateDeleted",
        `Deleted ${swept.arn} in account ${t.account}: its create, requested at ${t.requestedAt} by ${what} (uid ${t.owner.uid}), landed after that resource was deleted`,
      );
    } else if (swept.found !== "nothing") {
      say(req.name, swept.why, () =>
        log.warn({ ...fields, found: swept.found, why: swept.why }, "tombstone cannot be swept now"),
      );
    }
    const left = Date.parse(t.until) - now().getTime();
    if (left <= 0) {
      log.info(
        { ...fields, event: "tombstone.expired", until: t.until },
        "no create can land any more: tombstone dropped",
      );
      said.delete(req.name);
      await o.records.delete(req.name, ctx?.signal);
      return {};
    }
    return { requeueAfter: Math.min(period, left + 1) };
  };

  const controller = o.manager.controller({ name: "records", reconcile });
  // Keys are the records' names (all in the system namespace; other ConfigMaps there are not
  // records and never queued). A record of referrers is looked at when it appears and at each
  // resync (10 h): its referenced object's release deletes it before that (reference-uses.ts).
  controller.watch(o.informer, {
    map: (obj) => (obj.metadata.labels?.[recordLabel] === undefined ? undefined : obj.metadata.name),
  });
  return controller;
}

/** The writing side: a tombstone kept before its resource is let go (reconcile/finalize.ts). */
export function tombstoneKeeper(records: RecordStore): {
  keep(t: Tombstone, signal?: AbortSignal): Promise<void>;
} {
  return {
    keep: (t, signal) =>
      records.put(
        tombstoneRecordName(t.owner.uid),
        "tombstone",
        { [tombstoneKey]: JSON.stringify(t) },
        { "crossrole.dev/released": `${t.owner.kind} ${t.owner.namespace}/${t.owner.name}` },
        signal,
      ),
  };
}
