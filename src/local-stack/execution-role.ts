// The Lambda execution role of an account in the emulator: moto's Lambda refuses a function whose
// role IAM does not hold, and a real account has its own, so an example names the local stack's
// (`arn:aws:iam::<account>:role/local-stack-lambda`) and the stack makes it in that account before
// applying (src/local-stack/example-placeholders.ts). One IAM query call (emulator-query.ts).
import { emulatorQuery } from "./emulator-query.ts";

export const executionRoleName = "local-stack-lambda";

/** The local stack's execution role ARN in `account`. */
export const executionRoleArn = (account: string): string =>
  `arn:aws:iam::${account}:role/${executionRoleName}`;

const trust = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
});

/** Makes the execution role in the account of `accessKeyId`, unless it is there. */
export async function ensureExecutionRole(endpoint: string, accessKeyId: string): Promise<void> {
  const res = await emulatorQuery(
    endpoint,
    { accessKeyId, region: "us-east-1", service: "iam" },
    {
      Action: "CreateRole",
      Version: "2010-05-08",
      RoleName: executionRoleName,
      AssumeRolePolicyDocument: trust,
    },
  );
  if (!res.ok && !res.text.includes("EntityAlreadyExists"))
    throw new Error(
      `the emulator refused the local stack's Lambda role: ${res.status} ${res.text.slice(0, 300)}`,
    );
}
