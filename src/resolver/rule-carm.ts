// DESIGN §3.1 step 3: CARM mode (ACK's cross-account resource management).
//   a. resource annotation owner-account-id, only with ResourceLevelCARM and only for accounts
//      the namespace lists in allowed-owner-account-ids (an escalation path otherwise, §3.4);
//   b. namespace team-id with TeamLevelCARM → team map;
//   c. namespace owner-account-id → account map;
//   d. otherwise the default identity.
// Status is a record, never an input (DESIGN §3.4): unlike ACK, a recorded
// status.ackResourceMetadata.ownerAccountID never sends a resource to the account map — a tenant
// may write its own status. It is only compared with the decision to detect drift (placement.ts).
// With ServiceLevelCARM, `<service>.<id>` is tried before `<id>`; like ACK, a missing or empty
// service-level key falls back to `<id>`, but a conflicting or malformed one does not.

import { namespaceAnnotations, resourceAnnotations } from "../api/annotations.ts";
import { accountOfRoleArn, isAccountId } from "../api/validation.ts";
import { describeEntry, type Lookup, lookupRole, lookupTeamSetting } from "./carm-lookup.ts";
import { type Choice, type Context, pass, refused } from "./choice.ts";
import { refusal } from "./decision.ts";
import { controllerHop, mappedRoleHop } from "./hops.ts";
import { annotationOf } from "./resource-info.ts";
import type { DecisionSource, HopParameters } from "./types.ts";

type Subject = "account" | "team";

interface Target {
  readonly subject: Subject;
  readonly id: string;
  /** What asked for this lookup, for the trace: "namespace shop annotation services.k8s.aws/team-id". */
  readonly origin: string;
}

const ruleNames: Readonly<Record<Subject, string>> = { account: "CARM account map", team: "CARM team map" };
const sources: Readonly<Record<Subject, DecisionSource>> = { account: "accountCARM", team: "teamCARM" };

function conflictMessage(contenders: readonly string[]): string {
  return `CARM maps disagree: ${contenders.join("; ")}. Keep one role for the key (remove it from the other map or make them equal)`;
}

/** Applies the service-level rule and turns the lookup into a choice. */
function lookupTarget(ctx: Context, t: Target): Choice {
  const { snapshot, settings, trace, resource } = ctx;
  const rule = ruleNames[t.subject];
  const source = sources[t.subject];
  let found: Extract<Lookup, { kind: "found" }> | null = null;
  if (settings.featureGates.ServiceLevelCARM) {
    const serviceId = `${resource.service}.${t.id}`;
    const r = lookupRole(snapshot, t.subject, serviceId);
    if (r.kind === "found") {
      trace.taken(
        rule,
        `ServiceLevelCARM: ${r.where} maps the service-level key ${serviceId} to ${r.entry.value}.`,
      );
      found = r;
    } else if (r.kind === "conflict") {
      trace.failed(rule, `${conflictMessage(r.contenders)}.`);
      return refused(refusal("conflict", source, conflictMessage(r.contenders)));
    } else if (r.kind === "invalid") {
      trace.failed(rule, `${r.message}.`);
      return refused(refusal("wait", source, r.message));
    } else {
      trace.skipped(
        rule,
        `ServiceLevelCARM: no usable service-level key ${serviceId} (${r.message}); trying ${t.id}.`,
      );
    }
  }
  if (found === null) {
    const r = lookupRole(snapshot, t.subject, t.id);
    switch (r.kind) {
      case "found":
        trace.taken(rule, `${r.where} maps ${t.id} to ${r.entry.value} (asked for by ${t.origin}).`);
        found = r;
        break;
      case "conflict":
        trace.failed(rule, `${conflictMessage(r.contenders)}.`);
        return refused(refusal("conflict", source, conflictMessage(r.contenders)));
      default: {
        const message = `${t.origin} asks for ${t.subject} ${t.id}, but ${r.message} (never falling back to the controller's account)`;
        trace.failed(rule, `${message}.`);
        return refused(refusal("wait", source, message));
      }
    }
  }
  const entry = found.entry;
  const roleARN = entry.value.trim();
  const account = accountOfRoleArn(roleARN) ?? "";
  if (t.subject === "account" && isAccountId(t.id) && account !== t.id) {
    trace.info(
      rule,
      `Note: the key is account ${t.id} but the role ${roleARN} is in account ${account}; the role's account is used, as in ACK.`,
    );
  }

  const parameters: { -readonly [K in keyof HopParameters]: HopParameters[K] } = {};
  let teamEndpoint: { value: string; key: string } | null = null;
  if (t.subject === "team") {
    for (const field of ["external-id", "endpoint"] as const) {
      const r = settingFor(ctx, entry.id, t.id, field);
      if (r === null) continue;
      if (r.kind === "found") {
        trace.info(rule, `${r.where} sets the team's ${field} to ${r.entry.value}.`);
        if (field === "external-id") parameters.externalID = r.entry.value;
        else teamEndpoint = { value: r.entry.value, key: describeEntry(snapshot.systemNamespace, r.entry) };
      } else {
        const message = r.kind === "conflict" ? conflictMessage(r.contenders) : r.message;
        trace.failed(rule, `${message}.`);
        return refused(refusal(r.kind === "conflict" ? "conflict" : "wait", source, message));
      }
    }
  }
  return {
    kind: "chosen",
    source,
    chain: [controllerHop, mappedRoleHop("CARM", entry.key, roleARN, parameters, false)],
    roleARN,
    account: { from: "role", account },
    selector: null,
    teamEndpoint,
    via: found.where,
  };
}

/**
 * A team sub-key for the entry that matched (`<service>.<team>` or `<team>`), falling back to
 * the plain team's sub-key. Null when neither exists (the setting is optional).
 */
function settingFor(
  ctx: Context,
  matchedId: string,
  team: string,
  field: "endpoint" | "external-id",
): Lookup | null {
  for (const id of matchedId === team ? [team] : [matchedId, team]) {
    const r = lookupTeamSetting(ctx.snapshot, id, field);
    if (r.kind !== "missing") return r;
  }
  return null;
}

export function ruleCarm(ctx: Context): Choice {
  const { resource, namespace, settings, trace } = ctx;
  const gates = settings.featureGates;
  const ns = namespace.name;
  const nsLabel = `namespace ${ns}`;

  // a. resource-level owner-account-id
  const resourceAccount = annotationOf(resource, resourceAnnotations.ownerAccountId);
  if (resourceAccount !== null) {
    const rule = "CARM resource owner-account-id";
    if (!gates.ResourceLevelCARM) {
      trace.warn(
        rule,
        `the annotation ${resourceAnnotations.ownerAccountId}=${resourceAccount} on ${resource.kind} ${ns}/${resource.name} is ignored because feature gate ResourceLevelCARM is off (as in ACK); remove the annotation, or an administrator enables --feature-gates ResourceLevelCARM=true and lists the account in ${nsLabel}'s ${namespaceAnnotations.allowedOwnerAccountIds}`,
      );
    } else {
      if (!isAccountId(resourceAccount)) {
        const message = `annotation ${resourceAnnotations.ownerAccountId} "${resourceAccount}" on ${resource.kind} ${ns}/${resource.name} is not a 12-digit AWS account ID; fix or remove it`;
        trace.failed(rule, `${message}.`);
        return refused(refusal("deny", "accountCARM", message));
      }
      const allowed = namespace.allowedOwnerAccountIds;
      const fix = `an administrator must list it in ${nsLabel}'s annotation ${namespaceAnnotations.allowedOwnerAccountIds}`;
      if (allowed === null || !allowed.ok || !allowed.value.includes(resourceAccount)) {
        const have =
          allowed === null
            ? "which is not set (no account may be chosen per resource)"
            : !allowed.ok
              ? `which is invalid (${allowed.error})`
              : `which lists [${allowed.value.join(", ")}]`;
        const message = `${resource.kind} ${ns}/${resource.name} asks for account ${resourceAccount} (annotation ${resourceAnnotations.ownerAccountId}), but ${nsLabel} does not allow it: ${namespaceAnnotations.allowedOwnerAccountIds} ${have}; ${fix}`;
        trace.failed(rule, `${message}.`);
        return refused(refusal("deny", "accountCARM", message));
      }
      trace.taken(
        rule,
        `The resource asks for account ${resourceAccount} and ${nsLabel} allows it (${namespaceAnnotations.allowedOwnerAccountIds}: [${allowed.value.join(", ")}]).`,
      );
      return lookupTarget(ctx, {
        subject: "account",
        id: resourceAccount,
        origin: `annotation ${resourceAnnotations.ownerAccountId} on ${resource.kind} ${ns}/${resource.name}`,
      });
    }
  }

  // b. team map
  const team = namespace.teamId;
  if (team !== null) {
    if (!gates.TeamLevelCARM) {
      trace.skipped(
        "CARM team map",
        `${nsLabel} has ${namespaceAnnotations.teamId}=${team.raw}, but feature gate TeamLevelCARM is off, so it is ignored.`,
      );
    } else if (!team.ok) {
      const message = `${nsLabel}: ${team.error}`;
      trace.failed("CARM team map", `${message}.`);
      return refused(refusal("wait", "teamCARM", message));
    } else {
      return lookupTarget(ctx, {
        subject: "team",
        id: team.value,
        origin: `${nsLabel} annotation ${namespaceAnnotations.teamId}`,
      });
    }
  } else {
    trace.skipped("CARM team map", `${nsLabel} has no ${namespaceAnnotations.teamId} annotation.`);
  }

  // c. account map
  const owner = namespace.ownerAccountId;
  if (owner !== null) {
    if (!owner.ok) {
      const message = `${nsLabel}: ${owner.error}`;
      trace.failed("CARM account map", `${message}.`);
      return refused(refusal("wait", "accountCARM", message));
    }
    return lookupTarget(ctx, {
      subject: "account",
      id: owner.value,
      origin: `${nsLabel} annotation ${namespaceAnnotations.ownerAccountId}`,
    });
  }
  trace.skipped("CARM account map", `${nsLabel} has no ${namespaceAnnotations.ownerAccountId} annotation.`);
  return pass;
}
