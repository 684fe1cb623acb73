// DESIGN §3.1 steps 4–6: where the chosen identity acts — region, account, endpoint — and
// whether that contradicts where the resource already exists (drift).
//
// Region drift compares the recorded region with the region the resource itself asks for
// (its `services.k8s.aws/region` annotation): a namespace default or the controller flag
// changing later only affects new resources, since the recorded region wins (step 4). A region
// the AWS SDK's partition data does not list is used, with a warning (known-regions.ts).

import { namespaceAnnotations, resourceAnnotations } from "../api/annotations.ts";
import { isRegion } from "../api/validation.ts";
import type { Chosen, Context } from "./choice.ts";
import { type Refusal, refusal } from "./decision.ts";
import { unknownRegionWarning } from "./known-regions.ts";
import { annotationOf } from "./resource-info.ts";
import type { Decision } from "./types.ts";

export interface Placement {
  readonly region: string;
  readonly endpoint: string | null;
  readonly account: string | null;
  readonly drift: Decision["drift"];
}

/** The decided region, the one the resource itself asks for, and where the decided one came from. */
interface RegionChoice {
  readonly region: string;
  readonly desired: string | null;
  readonly from: string;
}

function regionOf(ctx: Context): RegionChoice | Refusal {
  const { resource, namespace, settings, trace } = ctx;
  const recorded = resource.status.region;
  const annotated = annotationOf(resource, resourceAnnotations.region);
  const where = `${resource.kind} ${namespace.name}/${resource.name}`;
  if (annotated !== null && !isRegion(annotated)) {
    const message = `annotation ${resourceAnnotations.region} "${annotated}" on ${where} is not an AWS region name (e.g. eu-west-1); fix the annotation`;
    trace.failed("region", `${message}.`);
    return refusal("wait", null, message);
  }
  if (recorded !== null) {
    trace.taken(
      "region",
      `The resource already exists in region ${recorded} (status.ackResourceMetadata.region), which wins over annotations and defaults.`,
    );
    return { region: recorded, desired: annotated, from: "status.ackResourceMetadata.region" };
  }
  if (annotated !== null) {
    trace.taken(
      "region",
      `Region ${annotated} from the resource's annotation ${resourceAnnotations.region}.`,
    );
    return {
      region: annotated,
      desired: annotated,
      from: `the resource's annotation ${resourceAnnotations.region}`,
    };
  }
  const nsRegion = namespace.defaultRegion;
  if (nsRegion !== null) {
    if (!nsRegion.ok) {
      const message = `namespace ${namespace.name}: ${nsRegion.error}`;
      trace.failed("region", `${message}.`);
      return refusal("wait", null, message);
    }
    trace.taken(
      "region",
      `Region ${nsRegion.value} from namespace ${namespace.name}'s annotation ${namespaceAnnotations.defaultRegion}.`,
    );
    return {
      region: nsRegion.value,
      desired: null,
      from: `namespace ${namespace.name}'s annotation ${namespaceAnnotations.defaultRegion}`,
    };
  }
  if (settings.defaultRegion !== null) {
    trace.taken("region", `Region ${settings.defaultRegion} from the controller's --aws-region.`);
    return { region: settings.defaultRegion, desired: null, from: "the controller's --aws-region" };
  }
  const message = `no region for ${where}: set the annotation ${resourceAnnotations.region} on it, ${namespaceAnnotations.defaultRegion} on namespace ${namespace.name}, or the controller's --aws-region`;
  trace.failed("region", `${message}.`);
  return refusal("wait", null, message);
}

function endpointOf(ctx: Context, chosen: Chosen): string | null | Refusal {
  const { namespace, settings, trace } = ctx;
  const nsEndpoint = namespace.endpointUrl;
  if (nsEndpoint !== null) {
    if (!nsEndpoint.ok) {
      const message = `namespace ${namespace.name}: ${nsEndpoint.error}`;
      trace.failed("endpoint", `${message}.`);
      return refusal("wait", null, message);
    }
    trace.taken(
      "endpoint",
      `Endpoint ${nsEndpoint.value} from namespace ${namespace.name}'s annotation ${namespaceAnnotations.endpointUrl}.`,
    );
    return nsEndpoint.value;
  }
  if (chosen.teamEndpoint !== null) {
    trace.taken("endpoint", `Endpoint ${chosen.teamEndpoint.value} from ${chosen.teamEndpoint.key}.`);
    return chosen.teamEndpoint.value;
  }
  if (settings.defaultEndpoint !== null) {
    // validateSettings checks the flag at startup.
    trace.taken("endpoint", `Endpoint ${settings.defaultEndpoint} from the controller's --aws-endpoint-url.`);
    return settings.defaultEndpoint;
  }
  trace.skipped("endpoint", "No endpoint override; the AWS SDK's regional endpoint is used.");
  return null;
}

function accountOf(ctx: Context, chosen: Chosen): string | null {
  const { settings, trace } = ctx;
  switch (chosen.account.from) {
    case "role":
      trace.taken("account", `Account ${chosen.account.account}, the account of the role ${chosen.roleARN}.`);
      return chosen.account.account;
    case "controller":
      if (settings.controllerAccount === null) {
        trace.info(
          "account",
          "The controller's own credentials are used; their account is learnt from sts:GetCallerIdentity (unknown offline without --controller-account).",
        );
        return null;
      }
      trace.taken("account", `Account ${settings.controllerAccount}, the controller's own account.`);
      return settings.controllerAccount;
    case "static":
      trace.info("account", "Static keys are used; their account is known only from sts:GetCallerIdentity.");
      return null;
  }
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && "outcome" in value;
}

export function placementOf(ctx: Context, chosen: Chosen): Placement | Refusal {
  const { resource, settings, trace } = ctx;
  const region = regionOf(ctx);
  if (isRefusal(region)) return region;
  const unknown = unknownRegionWarning(region.region, region.from);
  if (unknown !== undefined) trace.caution("region", "UnknownRegion", unknown);
  const endpoint = endpointOf(ctx, chosen);
  if (isRefusal(endpoint)) return endpoint;
  const account = accountOf(ctx, chosen);

  let drift: Decision["drift"] = null;
  if (region.desired !== null && region.desired !== region.region) {
    const message = `Resource already exists in region ${region.region}, but the desired state specifies region ${region.desired}`;
    trace.failed(
      "region drift",
      `${message}; the resource stays unsynced (ACK.Terminal) until the annotation is restored or the resource is recreated.`,
    );
    drift = { kind: "region", message };
  }
  const recorded = resource.status.ownerAccountID;
  if (recorded !== null && account !== null && recorded !== account) {
    const message = `Resource already exists in account ${recorded}, but the role used for reconciliation is in account ${account}`;
    if (settings.accountDriftPolicy === "recreate") {
      trace.info(
        "account drift",
        `${message}; --account-drift-policy=recreate: following the new role, the old ARN ${resource.status.arn ?? "(none recorded)"} is recorded in an Event.`,
      );
    } else {
      trace.failed(
        "account drift",
        `${message}; --account-drift-policy=block keeps the resource unsynced (ACK.Terminal).`,
      );
      drift ??= { kind: "account", message };
    }
  } else if (recorded !== null && account === null) {
    trace.info(
      "account drift",
      `The resource was recorded in account ${recorded}; drift is checked once the credentials' account is known.`,
    );
  }
  return { region: region.region, endpoint, account, drift };
}
