// The controller's own credentials (AWSControllerIdentity): the AWS SDK v3 default chain —
// environment, web-identity token file (IRSA), container credentials / EKS Pod Identity, IMDS —
// with the chain's own STS calls sent to the chain's region and endpoint.
import { fromNodeProviderChain } from "@aws-sdk/credential-providers";
import { CredentialFailedError, type HopContext } from "../errors.ts";
import type { CredentialProvider, StsTarget } from "../types.ts";

export interface ControllerCredentialsOptions {
  readonly target: StsTarget;
  readonly context: HopContext;
  /** Replaces the SDK default chain (a custom setup, or tests that must not touch IMDS). */
  readonly chain?: CredentialProvider;
}

export function controllerCredentials(opts: ControllerCredentialsOptions): CredentialProvider {
  const chain =
    opts.chain ??
    fromNodeProviderChain({
      clientConfig: {
        region: opts.target.region,
        ...(opts.target.endpoint ? { endpoint: opts.target.endpoint } : {}),
      },
    });
  return async () => {
    try {
      return await chain();
    } catch (err) {
      throw new CredentialFailedError({
        context: opts.context,
        cause: err,
        // The chain may find credentials later (a token file mounted late, IMDS back up).
        retryable: true,
        summary: `the controller found no AWS credentials of its own (${err instanceof Error ? err.message : String(err)})`,
        fix: "give the controller credentials: IRSA or EKS Pod Identity on its ServiceAccount, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY in its environment, or an instance role",
      });
    }
  };
}
