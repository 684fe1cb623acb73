// The Lambda execution role of an account in the emulator: moto's Lambda refuses a function whose
// role IAM does not hold, and a real account has its own, so an example names the local stack's
// (`arn:aws:iam::<account>:role/local-stack-lambda`) and the stack makes it in that account before
// applying (src/local-stack/example-placeholders.ts). One IAM query call, without the IAM SDK (the
// local stack loads no kind's client): moto reads the account from the access key.
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
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/20240101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: new URLSearchParams({
      Action: "CreateRole",
      Version: "2010-05-08",
      RoleName: executionRoleName,
      AssumeRolePolicyDocument: trust,
    }).toString(),
  });
  const text = await res.text();
  if (!res.ok && !text.includes("EntityAlreadyExists"))
    throw new Error(
      `the emulator refused the local stack's Lambda role: ${res.status} ${text.slice(0, 300)}`,
    );
}
