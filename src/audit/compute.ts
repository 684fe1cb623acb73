// computeAudit: who can act as which role, and through what (the auditor of DESIGN §1).
// Pure, like the resolver it calls: snapshot + settings + served kinds (+ existing resources)
// in, AuditReport out. Actual reaches are resolve() itself on a plain resource per namespace and
// kind; potential ones use the resolver's own chain walk and matchers (see README.md).

import { configurationProblems } from "../resolver/configuration-problems.ts";
import { carmActive, createContext } from "./context.ts";
import { Denials } from "./denied.ts";
import { applyExistingResources } from "./existing.ts";
import { applyFilter, withTotals } from "./filter.ts";
import { computeFindings } from "./findings.ts";
import { addIdentityReaches } from "./identities.ts";
import type { AuditInput } from "./input.ts";
import type { AuditReport } from "./model.ts";
import { Conflicts, probePlainResources } from "./plain.ts";
import { addResourceAccountReaches } from "./resource-accounts.ts";
import { addSelectorReaches } from "./selectors.ts";
import { tallyReaches } from "./tally.ts";

export function computeAudit(input: AuditInput): AuditReport {
  const ctx = createContext(input);
  const { grants, settings } = ctx;
  // Every grant object of the audited mode is listed, reached or not.
  grants.controller();
  if (carmActive(settings)) for (const entry of grants.carmRoleEntries()) grants.carm(entry, false);
  if (ctx.mode === "IAMRoleSelector")
    for (const selector of ctx.snapshot.selectors.all) grants.selector(selector);

  const conflicts = new Conflicts();
  const denials = new Denials();
  // Identity grants first: decisions through spec.identityRef (existing resources) name them.
  const chains = addIdentityReaches(ctx);
  const plain = probePlainResources(ctx, conflicts);
  if (ctx.mode === "IAMRoleSelector") addSelectorReaches(ctx, plain);
  addResourceAccountReaches(ctx, conflicts);
  if (input.resources !== undefined) applyExistingResources(ctx, input.resources, conflicts, denials);

  const tally = tallyReaches(ctx, plain);
  const findings = computeFindings(ctx, tally, chains, conflicts.all(), denials.findings());
  const report = withTotals({
    apiVersion: "crossrole.dev/audit/v1",
    mode: ctx.mode,
    source: input.source,
    controllerAccount: settings.controllerAccount,
    kinds: ctx.kindSets.names,
    filter: {},
    grants: tally.grants,
    reaches: tally.reaches,
    roles: tally.roles,
    namespaces: tally.namespaces,
    findings,
    problems: configurationProblems(
      ctx.snapshot,
      settings,
      ctx.kinds.map((k) => k.service),
    ),
    ...(input.notes === undefined || input.notes.length === 0 ? {} : { notes: input.notes }),
  });
  return applyFilter(report, input.filter ?? {});
}
