// A kind shaped like ACK's ECR Repository, as a declaration: what the generic runtime's and the
// code generator's unit tests reason about (a read by a list of names, a field group with read and
// remove calls of its own, tags by ARN). Not a served kind: nothing is generated from it.
import type { FieldGroup, KindDeclaration, RuntimeDeclaration } from "../../src/codegen/declaration.ts";

export const ecrLikeRuntime = {
  service: "ECR",
  noun: "repository",
  read: { call: "DescribeRepositories", output: "repositories" },
  delete: "DeleteRepository",
  arn: "repositoryArn",
  arnResource: "repository/",
  notFound: ["RepositoryNotFound"],
  alreadyExists: ["RepositoryAlreadyExists"],
  tags: { resource: "resourceArn", keys: "tagKeys", list: "tags" },
} as const satisfies RuntimeDeclaration;

/** The repository's declaration with these field groups, and its runtime section changed by `runtime`. */
export function ecrLikeDeclaration(
  groups: readonly FieldGroup[],
  runtime: Partial<RuntimeDeclaration> = {},
): KindDeclaration & { readonly runtime: RuntimeDeclaration } {
  return {
    service: "ecr",
    kind: "Repository",
    identifier: "repositoryName",
    terminalCodes: [],
    spec: [],
    create: "CreateRepository",
    groups,
    runtime: { ...ecrLikeRuntime, ...runtime },
  };
}
