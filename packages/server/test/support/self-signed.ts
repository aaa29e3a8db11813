import { generate } from "selfsigned";

export interface TestCertificate {
  /** PEM certificate for 127.0.0.1 and localhost, its own issuer: the CA a client trusts. */
  cert: string;
  /** PEM private key. */
  key: string;
}

/** A fresh self-signed certificate for the loopback server a test starts (valid for one day). */
export async function makeTestCertificate(): Promise<TestCertificate> {
  const now = Date.now();
  const made = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 86_400_000),
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
  return { cert: made.cert, key: made.private };
}
