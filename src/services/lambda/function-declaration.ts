// The Function kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateFunction's
// input with ACK's names, the reserved concurrency, event invoke configuration and code signing
// that ACK's lambda-controller manages by their own calls, and ACK's status from GetFunction.
// Lambda takes one change at a time: a function updating its code or configuration refuses the
// next (ResourceConflict), so an update stops once the answer says it is busy.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const functionDeclaration = {
  service: "lambda",
  kind: "Function",
  identifier: "FunctionName",
  immutable: ["FunctionName", "PackageType", "TenancyConfig"],
  // Lambda's refusals of a value (ACK has none of its own). InvalidParameterValue is not one:
  // Lambda answers it for a role IAM has not yet propagated too, which a retry resolves.
  terminalCodes: ["CodeStorageExceeded", "CodeVerificationFailed", "InvalidCodeSignature"],
  spec: [
    // Newer than ACK's CRD, not served yet: a function on capacity providers, its runtime pins.
    {
      members: "CreateFunctionRequest",
      ignore: ["PublishTo", "CapacityProviderConfig", "RuntimeConfig", "AcceleratorConfig"],
    },
    {
      field: "Code.SHA256",
      custom: "string",
      doc: "The SHA-256 (base64) of the deployment package the function should run: a new value updates the function's code from code.s3Bucket/s3Key or code.zipFile. Left out, a zipFile's own digest is compared.",
    },
    {
      field: "ReservedConcurrentExecutions",
      from: "PutFunctionConcurrencyRequest.ReservedConcurrentExecutions",
    },
    { field: "FunctionEventInvokeConfig", from: "PutFunctionEventInvokeConfigRequest" },
  ],
  renames: { FunctionName: "name" },
  references: [
    { field: "Role", service: "iam", kind: "Role", fills: "arn" },
    { field: "KMSKeyArn", service: "kms", kind: "Key", fills: "arn" },
    { field: "Code.S3Bucket", service: "s3", kind: "Bucket" },
    { field: "VpcConfig.SubnetIds", service: "ec2", kind: "Subnet" },
    { field: "VpcConfig.SecurityGroupIds", service: "ec2", kind: "SecurityGroup" },
    { field: "CodeSigningConfigArn", service: "lambda", kind: "CodeSigningConfig", fills: "arn" },
  ],
  notes: {
    FunctionName: "Immutable: Lambda cannot rename a function.",
    PackageType: "Immutable: a function's package type (Zip or Image) is fixed at its creation.",
    TenancyConfig: "Immutable: fixed at the function's creation.",
    Code: "The code is compared by its digest (code.sha256, or a zipFile's own) or its image URI; a change is one UpdateFunctionCode, with architectures.",
    Architectures: "Left out, Lambda's (x86_64) is kept.",
    Handler: "Left out, the function's handler is kept.",
    Runtime: "Left out, the function's runtime is kept.",
    Description: "Removed from the spec, the description is cleared.",
    Timeout: "Left out, Lambda's default of 3 seconds.",
    MemorySize: "Left out, Lambda's default of 128 MB.",
    Environment: "Removed from the spec, every variable is removed.",
    EphemeralStorage: "Left out, the function's (512 MB by default) is kept.",
    TracingConfig: "Left out, the function's (PassThrough by default) is kept.",
    LoggingConfig: "Left out, the function's logging configuration is kept.",
    SnapStart: "Left out, the function's SnapStart setting is kept.",
    DurableConfig: "Left out, the function's durable configuration is kept.",
    ReservedConcurrentExecutions: "Removed from the spec, the reserved concurrency is deleted.",
    FunctionEventInvokeConfig:
      "Removed from the spec, the configuration is deleted. Its functionName and qualifier are the function's own: they are not compared.",
    CodeSigningConfigArn: "Removed from the spec, the code signing configuration is detached.",
    Publish: "Applies to the create only: a version is published of the first code.",
    Tags: "Removed from the spec, the function's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateFunction",
  notCompared: { Publish: "a create-time choice: Lambda publishes a version of the code it was made with" },
  groups: [
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "ListTags",
      fields: { Tags: { form: "tags" } },
    },
    {
      set: "PutFunctionConcurrency",
      remove: "DeleteFunctionConcurrency",
      read: "GetFunction",
      fields: { ReservedConcurrentExecutions: {} },
    },
    {
      set: "PutFunctionEventInvokeConfig",
      remove: "DeleteFunctionEventInvokeConfig",
      read: "GetFunctionEventInvokeConfig",
      notFound: ["ResourceNotFound"],
      fields: {
        FunctionEventInvokeConfig: {
          custom: "its functionName and qualifier name the function itself and are not Lambda's to answer",
        },
      },
    },
    {
      set: "PutFunctionCodeSigningConfig",
      remove: "DeleteFunctionCodeSigningConfig",
      read: "GetFunctionCodeSigningConfig",
      fields: { CodeSigningConfigArn: {} },
    },
    {
      set: "UpdateFunctionConfiguration",
      read: "GetFunction",
      send: "changed",
      fields: {
        Role: {},
        Handler: { absent: "kept" },
        Runtime: { absent: "kept" },
        Description: { removedAs: { Description: "" } },
        Timeout: { default: 3 },
        MemorySize: { default: 128 },
        Environment: { removedAs: { Environment: { Variables: {} } } },
        VpcConfig: { removedAs: { VpcConfig: { SubnetIds: [], SecurityGroupIds: [] } } },
        DeadLetterConfig: { removedAs: { DeadLetterConfig: {} } },
        KMSKeyArn: { removedAs: { KMSKeyArn: "" } },
        Layers: { removedAs: { Layers: [] } },
        FileSystemConfigs: { removedAs: { FileSystemConfigs: [] } },
        ImageConfig: { removedAs: { ImageConfig: {} } },
        EphemeralStorage: { absent: "kept" },
        TracingConfig: { absent: "kept" },
        LoggingConfig: { absent: "kept" },
        SnapStart: { absent: "kept" },
        DurableConfig: { absent: "kept" },
      },
    },
    {
      // The code and the architectures it is built for: one UpdateFunctionCode, sent by the kind
      // (the call takes the package's members at its top, and needs one of them with any change).
      // Last: a configuration change that leaves the function updating stops the update before it.
      set: "UpdateFunctionCode",
      read: "GetFunction",
      byHook: true,
      fields: {
        Code: {
          custom: "Lambda answers only the package's digest (CodeSha256) or image URI, never its source",
        },
        Architectures: { absent: "kept" },
      },
    },
  ],
  status: {
    from: "FunctionConfiguration",
    only: [
      "CodeSha256",
      "CodeSize",
      "ImageConfigResponse",
      "LastModified",
      "LastUpdateStatus",
      "LastUpdateStatusReason",
      "LastUpdateStatusReasonCode",
      "Layers",
      "MasterArn",
      "RevisionId",
      "SigningJobArn",
      "SigningProfileVersionArn",
      "State",
      "StateReason",
      "StateReasonCode",
      "Version",
    ],
    renames: { Layers: "layerStatuses" },
  },
  runtime: {
    service: "Lambda",
    noun: "function",
    read: {
      call: "GetFunction",
      output: "Configuration",
      // GetFunction answers the function's tags, reserved concurrency and code location beside it.
      beside: ["Tags", "Concurrency", "Code"],
      members: {
        ReservedConcurrentExecutions: "Concurrency.ReservedConcurrentExecutions",
        ImageConfig: "ImageConfigResponse.ImageConfig",
        Layers: "Layers[].Arn",
        // Read by the kind's hook: the digest and image URI Lambda answers of it.
        Code: null,
      },
      groupsAtOnce: true,
    },
    // A function being created or updated takes no other change until it is done; the update
    // calls answer the function as GetFunction's Configuration does.
    states: {
      member: ["State", "LastUpdateStatus"],
      busy: ["Pending", "InProgress", "Deleting"],
      deleting: ["Deleting"],
      busyCodes: ["ResourceConflict"],
      pollSeconds: 5,
    },
    objectIn: { CreateFunction: "", UpdateFunctionConfiguration: "", UpdateFunctionCode: "" },
    delete: "DeleteFunction",
    arn: "FunctionArn",
    arnResource: "function:",
    notFound: ["ResourceNotFound"],
    alreadyExists: [{ code: "ResourceConflict", message: "already exist" }],
    tags: { resource: "Resource", keys: "TagKeys", list: "Tags", inAnswer: "Tags" },
    errorFields: {
      CodeStorageExceeded: "Code",
      CodeVerificationFailed: "Code",
      InvalidCodeSignature: "Code",
    },
    // Lambda's words name the field its create or update could not take (case-insensitive).
    fieldPatterns: {
      codes: ["ResourceNotFound", "InvalidParameterValue"],
      patterns: [
        ["layer", "Layers"],
        ["role", "Role"],
        ["subnet|security group|vpc", "VpcConfig"],
        ["kms", "KMSKeyArn"],
        ["s3|bucket|zip|code", "Code"],
        ["handler", "Handler"],
        ["runtime", "Runtime"],
        ["memory", "MemorySize"],
        ["timeout", "Timeout"],
      ],
    },
    hints: {
      InvalidParameterValue: {
        "spec.role":
          " (Lambda must be able to assume the role: its trust policy must name lambda.amazonaws.com; a role made moments ago may take a few seconds to be usable)",
      },
      ResourceConflict: " (the function is being created or updated; crossrole tries again)",
    },
  },
} as const satisfies KindDeclaration;
