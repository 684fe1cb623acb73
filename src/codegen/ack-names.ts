// ACK's naming convention for CRD fields, so that an ACK manifest applies unchanged: an AWS
// member name (`VpcSecurityGroupIds`, `KMSMasterKeyID`, `DBInstanceClass`) becomes a
// lowerCamelCase field name whose initialisms are upper case (`vpcSecurityGroupIDs`,
// `kmsMasterKeyID`, `dbInstanceClass`), the first word lower case.
//
// ACK's code-generator does this with an ordered list of substring replacements
// (aws-controllers-k8s/pkg names/names.go); crossrole does it word by word instead: a name is
// split into words and each word that is an initialism is written ACK's way. Words make
// ACK's many "but not in" cases fall out by themselves: `Id` is not the start of
// `Identifier`, `Idle` or `Idempotency`, `Ecr` is not inside `Secret` or `Decrease`, `Ena` is not
// `Enable`, `Nat` is not `Native`, `Ip` is not in `Multipart` and `Io` is not `Iops`, because
// those are other words. ack-names.test.ts checks the result against pairs read from ACK's CRDs
// (test/fixtures/ack-names/ack-crd-pairs.json).

/**
 * Words ACK writes upper case inside a field name, and lower case as its first word; each as
 * ACK spells it (`IPv6`, `SHA256`). ACK's list (names.go), word by word. Not here: `IPAddress`
 * and `IPSet` (IP + Address already come out as ACK writes them), `CACert` (ackFieldName),
 * `MD5Of` (a leading `MD5` is lowered whole anyway) and `ArgoCd` (no kind here has it).
 */
const initialisms = [
  "ACL",
  "ACM",
  "ACP",
  "AIML",
  "AMI",
  "API",
  "ARN",
  "ASN",
  "AWS",
  "AZ",
  "BGP",
  "CIDR",
  "CNAME",
  "CORS",
  "CPS",
  "CPU",
  "CRL",
  "CSR",
  "DB",
  "DBI",
  "DHCP",
  "DNS",
  "DPD",
  "EBS",
  "EC2",
  "ECMP",
  "ECR",
  "ECS",
  "EDI",
  "EFS",
  "EKS",
  "ENA",
  "FIFO",
  "FPGA",
  "GID",
  "GPU",
  "GRPC",
  "HTML",
  "HTTP",
  "HTTPS",
  "IAM",
  "ICMP",
  "ID",
  "IDC",
  "IO",
  "IOPS",
  "IP",
  "IPAM",
  "IPC",
  "IPv4",
  "IPv6",
  "JA3",
  "JSON",
  "JWT",
  "KMS",
  "LDAP",
  "MFA",
  "NAT",
  "OCSP",
  "OID",
  "OIDC",
  "PCA",
  "PID",
  "RAM",
  "RFC",
  "SASL",
  "SCRAM",
  "SDK",
  "SHA256",
  "SNS",
  "SQL",
  "SQLI",
  "SQS",
  "SRIOV",
  "SSE",
  "SSL",
  "TCP",
  "TDE",
  "TLS",
  "TPM",
  "TTL",
  "UDP",
  "UI",
  "UID",
  "URI",
  "URL",
  "UUID",
  "VGW",
  "VLAN",
  "VPC",
  "VPCE",
  "VPN",
  "WAF",
  "XML",
  "XSS",
  "YAML",
] as const;
const byLower = new Map<string, string>(initialisms.map((i) => [i.toLowerCase(), i]));
// Only all-capitals initialisms can be read out of a run of capitals (`SSEKMS` → SSE, KMS).
const capitalsOnly = initialisms.filter((i) => /^[A-Z0-9]+$/.test(i));

/**
 * AWS words that ACK writes as two: `Ramdisk` → `RAMDisk` (`ramDisk` first), `Awsvpc` →
 * `AWSVPC` (`awsVPC` first), `Mibps` → `MiBps` (`miBps` first).
 */
const twoWords: Readonly<Record<string, readonly [string, string]>> = {
  awsvpc: ["Aws", "Vpc"],
  mibps: ["Mi", "Bps"],
  ramdisk: ["Ram", "Disk"],
};

/**
 * A name's words, in the order they are tried: `IPv4`/`IPv6` as AWS writes them; a run of
 * capitals with a plural `s` (`VPCs`, `ARNs`); a run of capitals not followed by a lower case
 * letter (`DBInstance`: the run loses its last capital to the word after it); a capitalised
 * word; a lower case word (`repositoryUri` starts with one); digits.
 */
const wordPattern = /I[Pp]v[46]|[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z][a-z]*|[a-z]+|[0-9]+/g;

/** Splits an AWS name into words: `DBInstanceClass` → DB, Instance, Class; `SSEKMS` → SSE, KMS. */
export function wordsOf(name: string): string[] {
  const words: string[] = [];
  for (const part of name.match(wordPattern) ?? []) {
    if (/^[A-Z]{2,}$/.test(part)) words.push(...splitCapitals(part));
    else words.push(...(twoWords[part.toLowerCase()] ?? [part]));
  }
  return mergeDigits(words);
}

/** `SSEKMS` → SSE, KMS; a run that is no sequence of initialisms stays one word (`FQDN`). */
function splitCapitals(run: string): string[] {
  return initialismsIn(run) ?? [run];
}

/** The initialisms `run` is made of, longest first at each step, or undefined if it is none. */
function initialismsIn(run: string): string[] | undefined {
  if (run === "") return [];
  for (const head of capitalsOnly.filter((i) => run.startsWith(i)).sort((a, b) => b.length - a.length)) {
    const rest = initialismsIn(run.slice(head.length));
    if (rest !== undefined) return [head, ...rest];
  }
  return undefined;
}

/** `Ec`, `2` → `Ec2`: a digit run ends the word before it (EC2, S3, Route53, Dns64). */
function mergeDigits(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (/^[0-9]+$/.test(w) && last !== undefined) out[out.length - 1] = last + w;
    else out.push(w);
  }
  return out;
}

/**
 * One word as ACK writes it: an initialism as ACK spells it, with a plural `s` kept lower case
 * (`Ids` → `IDs`, `Vgws` → `VGWs`) and digits after it kept (`Dns64` → `DNS64`).
 */
function ackWord(word: string): string {
  const lower = word.toLowerCase();
  const exact = byLower.get(lower);
  if (exact !== undefined) return exact;
  const plural = lower.endsWith("s") ? byLower.get(lower.slice(0, -1)) : undefined;
  if (plural !== undefined) return `${plural}s`;
  const [, letters, digits] = /^([a-z]+)([0-9]+)$/.exec(lower) ?? [];
  const stem = letters === undefined ? undefined : byLower.get(letters);
  if (stem !== undefined) return stem + digits;
  return word;
}

/**
 * Leading all-capitals words that ACK's CRDs write as a run of capitals, not as an initialism:
 * ACK's rule matched `Uri` but not `URI` until aws-controllers-k8s/pkg's "Fix URI becoming uRI",
 * and the s3 Bucket release crossrole serves has `uRI` (lambda's EventSourceMapping has both).
 */
const capitalsWhenLeading = new Set(["URI"]);

/**
 * The CRD field name ACK gives an AWS member: `KmsMasterKeyId` → `kmsMasterKeyID`. A leading
 * initialism is lower-cased whole (`DBName` → `dbName`, `VPCs` → `vpcs`); a leading run of
 * capitals that is no initialism only loses its first capital, as in ACK's CRDs (`FQDN` →
 * `fQDN`, `CAIdentifier` → `cAIdentifier`, `URI` → `uRI`), but ACK lowers a leading `CA` before
 * `Cert…` whole (`CACertificateIdentifier` → `caCertificateIdentifier`).
 */
export function ackFieldName(awsName: string): string {
  const words = wordsOf(awsName);
  const [first, ...rest] = words;
  if (first === undefined) return awsName;
  // A leading run of capitals, plural or not (`FQDN`, `VPCs`), unless it is an initialism.
  const run = /^([A-Z]{2,})s?$/.exec(first)?.[1];
  const initialism = run !== undefined && byLower.has(run.toLowerCase()) && !capitalsWhenLeading.has(run);
  const caCert = first === "CA" && rest[0]?.startsWith("Cert") === true;
  const head =
    run === undefined || initialism || caCert
      ? first.toLowerCase()
      : first.charAt(0).toLowerCase() + first.slice(1);
  return head + rest.map(ackWord).join("");
}
