// ACK's naming convention for CRD fields, so that an ACK manifest applies unchanged: an AWS
// member name (`VpcSecurityGroupIds`, `KMSMasterKeyID`, `DBInstanceClass`) becomes a
// lowerCamelCase field name whose initialisms are upper case (`vpcSecurityGroupIDs`,
// `kmsMasterKeyID`, `dbInstanceClass`), the first word lower case. The initialisms are the ones
// ACK's CRDs of the served kinds use; ack-names.test.ts holds the pairs read from those CRDs.

/** Words written upper case inside a field name (and lower case as its first word). */
const initialisms = [
  "ACL",
  "ARN",
  "AZ",
  "CORS",
  "CPU",
  "DB",
  "DNS",
  "EBS",
  "EC2",
  "HTTP",
  "HTTPS",
  "IAM",
  "ID",
  "IO",
  "IOPS",
  "IP",
  "JSON",
  "KMS",
  "MFA",
  "SNS",
  "SQS",
  "SSE",
  "SSL",
  "TDE",
  "TLS",
  "TTL",
  "URL",
  "VPC",
] as const;
const byLower = new Map<string, string>(initialisms.map((i) => [i.toLowerCase(), i]));
// Longest first, so that a run of capitals splits into the longest initialisms it starts with.
const longestFirst = [...initialisms].sort((a, b) => b.length - a.length);

/** Splits an AWS name into words: `DBInstanceClass` → DB, Instance, Class; `SSEKMS` → SSE, KMS. */
export function wordsOf(name: string): string[] {
  const words: string[] = [];
  for (const part of name.match(/[A-Z]+(?![a-z])|[A-Z][a-z]*|[a-z]+|[0-9]+/g) ?? []) {
    if (/^[A-Z]{2,}$/.test(part)) words.push(...splitCapitals(part));
    else words.push(part);
  }
  // A run of capitals followed by a word ("DBInstance") loses its last capital to that word.
  return mergeDigits(words);
}

/** `SSEKMS` → SSE, KMS; a run that is no sequence of initialisms stays one word (`ACLs` aside). */
function splitCapitals(run: string): string[] {
  const out: string[] = [];
  let rest = run;
  while (rest.length > 0) {
    const head = longestFirst.find((i) => rest.startsWith(i));
    if (head === undefined) return [run];
    out.push(head);
    rest = rest.slice(head.length);
  }
  return out;
}

/** `Ec`, `2` → `Ec2`: a digit run ends the word before it (EC2, S3, Route53). */
function mergeDigits(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (/^[0-9]+$/.test(w) && last !== undefined) out[out.length - 1] = last + w;
    else out.push(w);
  }
  return out;
}

/** One word as ACK writes it: an initialism upper case, with a plural `s` kept lower case. */
function ackWord(word: string): string {
  const lower = word.toLowerCase();
  const exact = byLower.get(lower);
  if (exact !== undefined) return exact;
  if (lower.endsWith("s")) {
    const singular = byLower.get(lower.slice(0, -1));
    if (singular !== undefined) return `${singular}s`;
  }
  return word;
}

/** Names ACK writes otherwise than its rule would. */
const exceptions: Readonly<Record<string, string>> = { CACertificateIdentifier: "caCertificateIdentifier" };

/**
 * The CRD field name ACK gives an AWS member: `KmsMasterKeyId` → `kmsMasterKeyID`. A leading
 * initialism is lower-cased whole (`DBName` → `dbName`); a leading run of capitals that is no
 * initialism only loses its first capital, as in ACK's CRDs (`FQDN` → `fQDN`, `URI` → `uRI`).
 */
export function ackFieldName(awsName: string): string {
  const exception = exceptions[awsName];
  if (exception !== undefined) return exception;
  const words = wordsOf(awsName).map(ackWord);
  const [first, ...rest] = words;
  if (first === undefined) return awsName;
  const head =
    byLower.has(first.toLowerCase()) || !/^[A-Z]{2,}$/.test(first)
      ? first.toLowerCase()
      : first[0]?.toLowerCase() + first.slice(1);
  return head + rest.join("");
}
