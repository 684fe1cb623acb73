// The Repository kind: its declaration (repository-declaration.ts) served by the generic runtime,
// plus ECR's two quirks as hooks: a repository lives in an account's registry, which a spec's
// registryID must not name otherwise; and a repository holding images is deleted only when forced,
// as ACK's ecr.services.k8s.aws/force-delete annotation asks.
import type { ECRClient } from "@aws-sdk/client-ecr";
import * as ecrSdk from "@aws-sdk/client-ecr";
import { requireKind } from "../../api/resource.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindSource } from "../declared-kind/source.ts";
import { accountClient } from "../service-module-parts.ts";
import { ecrClientFactory } from "./client.ts";
import { repositoryGenerated } from "./generated/repository-fields.ts";
import { repositoryDeclaration } from "./repository-declaration.ts";

const kind = requireKind("ecr.services.k8s.aws/v1alpha1", "Repository");

/** ACK's annotation (its ecr-controller's hook.go): delete the repository with the images it holds. */
export const forceDeleteAnnotation = "ecr.services.k8s.aws/force-delete";

/** Go's strconv.ParseBool, as ACK reads the annotation; undefined for anything else. */
function parseBool(value: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  return undefined;
}

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas({
  kind,
  declaration: repositoryDeclaration,
  generated: repositoryGenerated,
});

export const { crdSource: repositoryCrdSource } = schemas;

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const repositorySource = {
  kind,
  declaration: repositoryDeclaration,
  generated: repositoryGenerated,
  schemas,
  sdk: ecrSdk,
  clientFactory: ecrClientFactory,
  // The client knows the account it acts in, which a spec's registryID must be.
  client: accountClient(ecrClientFactory, "sdk"),
  hooks: {
    // ECR's registry is the account: a registryID naming another would put the repository (or
    // look for it) where the resource does not belong. Nothing is sent.
    createRefused: (spec, { account }) => {
      const registry = spec["registryID"];
      if (registry === undefined || account === undefined || registry === account) return undefined;
      return {
        code: "RegistryNotTheAccount",
        field: "spec.registryID",
        message: `spec.registryID "${String(registry)}" is not the resource's account ${account} (decided by its identity): a Repository is made only in that account's registry; remove registryID, or fix it`,
      };
    },
    deleteInput: (_spec, annotations) => {
      const given = annotations[forceDeleteAnnotation];
      if (given === undefined) return {};
      const force = parseBool(given);
      if (force === undefined)
        return {
          refused: `annotation ${forceDeleteAnnotation}: "${given}" is not true or false; fix it ("true" deletes the repository with its images)`,
        };
      return { force };
    },
  },
} satisfies DeclaredKindSource<ECRClient>;

export const repositoryService = declaredKindModule(repositorySource);
