import { generate } from 'selfsigned';

export interface Certificate {
  key: string;
  cert: string;
}

/**
 * A throwaway self-signed certificate that is its own CA (cA: true), so it can be trusted as a
 * root (NODE_EXTRA_CA_CERTS, or the dispatcher's CA option in tests), for the given host names
 * and IP addresses. Used by `npm run webhook-receiver` and the tests' HTTPS receivers.
 */
export async function makeLocalCertificate(opts: {
  commonName: string;
  dnsNames: string[];
  ips: string[];
  days: number;
}): Promise<Certificate> {
  const pems = await generate([{ name: 'commonName', value: opts.commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + opts.days * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...opts.dnsNames.map((value) => ({ type: 2, value })), ...opts.ips.map((ip) => ({ type: 7, ip }))],
      },
    ],
  } as never);
  return { key: pems.private, cert: pems.cert };
}
