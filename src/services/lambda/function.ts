// The Function kind: its declaration (function-declaration.ts) served by the generic runtime, with
// the hooks for Lambda's quirks: the code is answered only as its digest (CodeSha256) or image
// URI, so it is compared so (a zipFile's own digest where the spec gives none) and UpdateFunctionCode
// takes the package's members at its top; the event invoke configuration is a whole call's input.
import { createHash } from "node:crypto";
import type { LambdaClient } from "@aws-sdk/client-lambda";
import * as lambdaSdk from "@aws-sdk/client-lambda";
import { requireKind } from "../../api/resource.ts";
import { sameByRule } from "../declared-drift.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import { declaredKindSchemas } from "../declared-kind/schemas.ts";
import type { DeclaredKindHooks, DeclaredKindSource, Fields } from "../declared-kind/source.ts";
import { awsMembers, fromAws } from "../shape-codec.ts";
import { lambdaClientFactory } from "./client.ts";
import { functionDeclaration } from "./function-declaration.ts";
import { functionGenerated } from "./generated/function-fields.ts";

const kind = requireKind("lambda.services.k8s.aws/v1alpha1", "Function");
const { codecs } = functionGenerated;

/** Its spec, status, object and CRD source: the generated schemas (built once, for the module and the CRD). */
const schemas = declaredKindSchemas(
  { kind, declaration: functionDeclaration, generated: functionGenerated },
  {
    // Lambda signs only .zip packages (ACK refuses this too): said before anything is sent.
    refine: (spec, ctx) => {
      const s = spec as Fields;
      if (
        s["packageType"] !== "Image" ||
        s["codeSigningConfigARN"] === undefined ||
        s["codeSigningConfigARN"] === ""
      )
        return;
      ctx.addIssue({
        code: "custom",
        path: ["codeSigningConfigARN"],
        message:
          "cannot set function code signing config when package type is Image: Lambda signs only .zip packages; remove spec.codeSigningConfigARN",
      });
    },
  },
);

export const { crdSource: functionCrdSource } = schemas;

const record = (v: unknown): Fields => (typeof v === "object" && v !== null ? (v as Fields) : {});

/** The digest Lambda answers for a deployment package: SHA-256, base64. */
export function packageDigest(zipFileBase64: string): string {
  return createHash("sha256").update(Buffer.from(zipFileBase64, "base64")).digest("base64");
}

/**
 * Whether the function runs the code the spec says: the image URI, else the digest the spec gives
 * (code.sha256) or its zipFile's own; a package in S3 without a digest cannot be told (as ACK).
 */
export function sameCode(desired: Fields, observed: Fields): boolean {
  const want = record(desired["code"]);
  const has = record(observed["code"]);
  if (typeof want["imageURI"] === "string") return want["imageURI"] === has["imageURI"];
  const digest =
    typeof want["sha256"] === "string"
      ? want["sha256"]
      : typeof want["zipFile"] === "string"
        ? packageDigest(want["zipFile"])
        : undefined;
  return digest === undefined || digest === has["sha256"];
}

/** The event invoke configuration as Lambda holds it: the function's own name and qualifier aside. */
const invokeConfig = (v: unknown): Fields => {
  const { functionName: _, qualifier: __, ...rest } = record(v);
  return rest;
};

/** The package as Lambda takes it: code.sha256 is crossrole's (ACK's) alone, never sent. */
function packageOf(code: unknown): Fields {
  const { SHA256: _, ...members } = record(code);
  return members;
}

/** UpdateFunctionCode's members for the spec's code: the package's at the call's top, and the architectures. */
export function codeInput(desired: Fields): Fields {
  const { Code, ...architectures } = awsMembers(codecs, desired, ["code", "architectures"]);
  return { ...packageOf(Code), ...architectures };
}

const hooks: DeclaredKindHooks = {
  fieldsFromAnswer: (item) => {
    const location = record(item["Code"]);
    const code = {
      ...(typeof item["CodeSha256"] === "string" ? { sha256: item["CodeSha256"] } : {}),
      ...(typeof location["ImageUri"] === "string" ? { imageURI: location["ImageUri"] } : {}),
    };
    // Lambda answers a function without a description with "": none, as the spec says it.
    return {
      code: Object.keys(code).length === 0 ? undefined : code,
      ...(item["Description"] === "" ? { description: undefined } : {}),
    };
  },
  groupFieldsFromAnswer: {
    GetFunctionEventInvokeConfig: (answer) => {
      const [, codec] = codecs["functionEventInvokeConfig"] ?? [];
      const value = codec === undefined ? undefined : invokeConfig(fromAws(codec, answer));
      return {
        functionEventInvokeConfig: value === undefined || Object.keys(value).length === 0 ? undefined : value,
      };
    },
  },
  equal: {
    code: sameCode,
    functionEventInvokeConfig: (desired, observed) =>
      sameByRule(
        { absent: "none", form: "value" },
        desired["functionEventInvokeConfig"] === undefined
          ? undefined
          : invokeConfig(desired["functionEventInvokeConfig"]),
        // Read without them already (groupFieldsFromAnswer).
        observed["functionEventInvokeConfig"],
      ),
  },
  // The configuration's own members (PutFunctionEventInvokeConfig names the function by its address).
  setInputs: {
    functionEventInvokeConfig: (desired) => {
      const { FunctionEventInvokeConfig } = awsMembers(codecs, desired, ["functionEventInvokeConfig"]);
      const { FunctionName: _, Qualifier: __, ...members } = record(FunctionEventInvokeConfig);
      return [members];
    },
  },
  writes: {
    UpdateFunctionCode: async (ask, address, desired) => {
      await ask(
        "UpdateFunctionCode",
        { ...codeInput(desired), FunctionName: address },
        { field: "spec.code" },
      );
    },
  },
  createInput: (input) => ({ ...input, Code: packageOf(input["Code"]) }),
};

/** What the generic runtime serves the kind from (the catalog's `declared`: tests rebuild it). */
export const functionSource = {
  kind,
  declaration: functionDeclaration,
  generated: functionGenerated,
  schemas,
  sdk: lambdaSdk,
  clientFactory: lambdaClientFactory,
  hooks,
} satisfies DeclaredKindSource<LambdaClient>;

export const functionService = declaredKindModule(functionSource);
