// How a kind served from its declaration reads AWS's errors: the code (without AWS's suffixes,
// by the declaration's name where AWS has two), whether it means "no such object" or "it exists
// already", and the kind's error (terminal by the declaration's codes) naming the operation, the
// object, the spec field and the fix — the field the call was about, else the one the code is
// always about, else the one AWS's message names. Pure: the wording is the declaration's.
import type { KindDeclaration, RuntimeDeclaration } from "../../codegen/declaration.ts";
import {
  deletionProtectedError,
  failureError,
  fallbackCode,
  genericErrorNames,
  messageOf,
  objectErrorClass,
  type ServiceRules,
  sdkErrorCodeField,
  sdkErrorName,
} from "../service-error.ts";
import type { FieldCodecs } from "../shape-codec.ts";
import type { ErrorDetail } from "./source.ts";

/** What a failed call was: the operation, the object's name, and the spec field it applied. */
export interface CallFailure {
  readonly operation: string;
  readonly name: string;
  readonly field?: string | undefined;
  /**
   * The spec fields a call sending only changed fields was applying (FieldGroup.send "changed"):
   * a field AWS's message names is taken only if it is one of them, else the only one; with
   * several and none named, the message lists them.
   */
  readonly fields?: readonly string[] | undefined;
  /** The spec fields whose secret values the call carried: AWS's message and the cause are withheld. */
  readonly secretFields?: readonly string[] | undefined;
}

export function declaredKindErrors(
  kindName: string,
  service: string,
  declaration: KindDeclaration & { readonly runtime: RuntimeDeclaration },
  names: {
    readonly codecs: FieldCodecs;
    /** Every spec field's AWS name, where not all have codecs (a secret's). */
    readonly awsNames?: Readonly<Record<string, string>> | undefined;
    readonly attributes?: Readonly<Record<string, string>> | undefined;
    /** More of an error than its code says (the kind's errorDetail hook). */
    readonly detail?: (code: string, err: unknown) => ErrorDetail | undefined;
  },
) {
  const runtime = declaration.runtime;
  const genericNames = new Set([...genericErrorNames, `${runtime.service}ServiceException`]);
  const code = (err: unknown): string => {
    // Declarations name codes without AWS's suffixes: RDS's DBSubnetGroupNotFound(Fault), ECR's
    // LifecyclePolicyNotFound(Exception); without the awsJson `<namespace>#` prefix; and by one
    // name where AWS has two (codeAliases).
    const answered = (sdkErrorName(err, genericNames) ?? sdkErrorCodeField(err) ?? fallbackCode(err))
      .replace(/^.*#/, "")
      .replace(/(Fault|Exception)$/, "");
    return runtime.codeAliases?.[answered] ?? answered;
  };
  const codes = (list: readonly string[]) => new Set(list);
  const notFound = codes(runtime.notFound);
  const isAlreadyExists = (err: unknown): boolean => {
    const c = code(err);
    return runtime.alreadyExists.some((e) =>
      typeof e === "string"
        ? e === c
        : e.code === c && messageOf(err).toLowerCase().includes(e.message.toLowerCase()),
    );
  };
  const rules: ServiceRules<string> = {
    service: runtime.service,
    noun: runtime.noun,
    genericNames,
    terminalCodes: codes(declaration.terminalCodes),
    // Every call's action, hooks' calls too: `<service>:<Operation>` unless declared otherwise.
    iamActions: new Proxy({} as Record<string, string>, {
      get: (_, op) => {
        const action = runtime.iamActions?.[String(op)] ?? `${service}:${String(op)}`;
        // A variant's actions are its own service's, of the same names (S3 Express's).
        return runtime.iamService === undefined
          ? action
          : action.replace(/^[^:]+:/, `${runtime.iamService}:`);
      },
    }),
    refusedValue: codes(runtime.refusedValue ?? declaration.terminalCodes),
    accessDenied: codes([
      "AccessDenied",
      "AccessDeniedException",
      "UnauthorizedOperation",
      ...(runtime.accessDenied ?? []),
    ]),
    gone: notFound,
    create: declaration.create,
    throttled: codes([
      "Throttling",
      "ThrottlingException",
      "RequestLimitExceeded",
      "TooManyRequestsException",
      ...(runtime.throttled ?? []),
    ]),
  };
  /** The declaration's own hint for a code, worded for the object and the failing field. */
  const hintOf = (c: string, f: CallFailure, field: string | undefined): string | undefined => {
    const declared = runtime.hints?.[c];
    const text =
      typeof declared === "string"
        ? declared
        : ((field === undefined ? undefined : declared?.[field]) ??
          declared?.[f.operation] ??
          declared?.[""]);
    return text
      ?.replaceAll("{name}", f.name)
      .replaceAll("{field}", field ?? "the spec")
      .replaceAll("{action}", rules.iamActions[f.operation] ?? "");
  };
  // The object's name under `object`: an Error's own `name` is its class's ("QueueError").
  const ErrorClass = objectErrorClass<string, "object">(`${kindName}Error`, "object");
  const specNameOf = new Map([
    ...Object.entries(names.awsNames ?? {}).map(([field, aws]): [string, string] => [aws, field]),
    ...Object.entries(names.codecs).map(([field, [aws]]): [string, string] => [aws, field]),
  ]);
  const specOfAttribute = new Map(
    Object.entries(names.attributes ?? {}).map(([field, attribute]) => [attribute, field]),
  );
  const specPath = (aws: string | undefined): string | undefined => {
    const field = aws === undefined ? undefined : (specNameOf.get(aws) ?? specOfAttribute.get(aws));
    return field === undefined ? undefined : `spec.${field}`;
  };
  // A message that names the refused field by its AWS name (runtime.fieldNamedIn): the first word
  // that is a spec field's member or attribute name, or its plural ("Topic names must be ...").
  const byAwsName = new Map(
    [...specNameOf, ...specOfAttribute].map(([aws, field]) => [aws.toLowerCase(), field]),
  );
  const fieldInMessage = (c: string, message: string): string | undefined => {
    if (runtime.fieldNamedIn?.includes(c)) {
      const field = (message.match(/[A-Za-z]+/g) ?? [])
        .map((w) => byAwsName.get(w.toLowerCase()) ?? byAwsName.get(w.toLowerCase().replace(/s$/, "")))
        .find(Boolean);
      if (field !== undefined) return `spec.${field}`;
    }
    // Or by the words the declaration gives (DynamoDB's "ReplicaUpdates", "KeySchema", ...).
    const patterns = runtime.fieldPatterns;
    if (patterns?.codes.includes(c) !== true) return undefined;
    const hit = patterns.patterns.find(([pattern]) => new RegExp(pattern, "i").test(message));
    return specPath(hit?.[1]);
  };
  const protection = runtime.deletionProtected;
  const protectionCodes = new Set(
    protection === undefined ? [] : typeof protection.code === "string" ? [protection.code] : protection.code,
  );
  const isDeletionProtected = (err: unknown, c: string): boolean =>
    protection !== undefined &&
    protectionCodes.has(c) &&
    new RegExp(protection.words, "i").test(messageOf(err));
  const classify = (err: unknown, f: CallFailure) => {
    if (err instanceof ErrorClass) return err;
    const failed = code(err);
    if (f.operation === runtime.delete && protection !== undefined && isDeletionProtected(err, failed)) {
      return deletionProtectedError(ErrorClass, rules, err, {
        operation: f.operation,
        name: f.name,
        code: failed,
        field: specPath(protection.field) ?? `spec.${protection.field}`,
        keep: protection.keep ?? runtime.noun,
        secretFields: f.secretFields,
      });
    }
    // AWS's own words name the field (read whole, even where they are withheld from the message).
    const named = fieldInMessage(failed, messageOf(err));
    const applied = f.fields;
    // A code about one field names it, whichever call failed (a subnet RDS cannot use: spec.subnetIDs).
    const field =
      applied === undefined
        ? (specPath(runtime.errorFields?.[failed]) ?? f.field ?? named)
        : (f.field ??
          specPath(runtime.errorFields?.[failed]) ??
          (named !== undefined && applied.includes(named)
            ? named
            : applied.length === 1
              ? applied[0]
              : named));
    const applying =
      field === undefined && applied !== undefined && applied.length > 1
        ? ` (applying ${applied.join(", ")})`
        : "";
    const more = names.detail?.(failed, err);
    const error = failureError(ErrorClass, rules, err, {
      operation: f.operation,
      name: f.name,
      code: failed,
      field,
      hint: more?.hint ?? hintOf(failed, f, field),
      applying,
      secretFields: f.secretFields,
    });
    return more?.extra === undefined ? error : Object.assign(error, more.extra);
  };
  return {
    code,
    isNotFound: (err: unknown) => notFound.has(code(err)),
    isAlreadyExists,
    classify,
    ErrorClass,
    /** An error of the kind's class for a failure crossrole itself finds (not AWS's answer). */
    refusal: (f: CallFailure, name: string, message: string) =>
      classify(Object.assign(new Error(message), { name }), f),
  };
}
