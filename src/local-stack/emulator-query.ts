// One query-protocol call to the emulator as an account (EC2's, IAM's), without the service's SDK
// (the local stack loads no kind's client): moto reads the account from the access key and the
// service from the credential scope of the Authorization header, and checks no signature.
export async function emulatorQuery(
  endpoint: string,
  as: { readonly accessKeyId: string; readonly region: string; readonly service: string },
  params: Readonly<Record<string, string>>,
): Promise<{ readonly ok: boolean; readonly status: number; readonly text: string }> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `AWS4-HMAC-SHA256 Credential=${as.accessKeyId}/20240101/${as.region}/${as.service}/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: new URLSearchParams(params).toString(),
  });
  return { ok: res.ok, status: res.status, text: await res.text() };
}

/**
 * One JSON-protocol call to the emulator as an account (KMS's: `X-Amz-Target` names the call), as
 * emulatorQuery does for the query protocol; the answer parsed (`{}` when it has no body).
 */
export async function emulatorJson(
  endpoint: string,
  as: { readonly accessKeyId: string; readonly region: string; readonly service: string },
  target: string,
  body: Readonly<Record<string, unknown>>,
): Promise<{ readonly ok: boolean; readonly status: number; readonly answer: Record<string, unknown> }> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": target,
      authorization: `AWS4-HMAC-SHA256 Credential=${as.accessKeyId}/20240101/${as.region}/${as.service}/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { ok: res.ok, status: res.status, answer: text === "" || text === "null" ? {} : JSON.parse(text) };
}
