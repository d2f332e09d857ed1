// Certificates over ACME (RFC 8555) with acme-client: the HTTP-01 challenge, answered by whichever
// instance the CA reaches (the token and key authorisation are kept in the database), one order
// per hostname. The platform's account key is kept sealed in the database, one per directory.
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import type * as AcmeClient from 'acme-client';
import type { SecretBox } from '../../platform/crypto';
import type { DomainsRepository } from './domains.repository';

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  expiresAt: Date;
}

export interface CertificateIssuer {
  issue(hostname: string): Promise<IssuedCertificate>;
}

export interface AcmeIssuerOptions {
  directoryUrl: string;
  email?: string;
  /** PEM roots trusted beside the system's for the directory's TLS (a test CA such as Pebble's). */
  caFile?: string;
  repo: DomainsRepository;
  secrets: SecretBox;
}

export class AcmeIssuer implements CertificateIssuer {
  private client?: Promise<AcmeClient.Client>;
  private library?: Promise<typeof AcmeClient>;
  /** PEM roots of caFile, read at construction: a missing file is a start-up error. */
  private readonly extraRoots?: string;

  constructor(private readonly o: AcmeIssuerOptions) {
    if (o.caFile) this.extraRoots = fs.readFileSync(o.caFile, 'utf8');
  }

  /**
   * acme-client, loaded at the first certificate: it and its dependencies (node-forge, @peculiar,
   * axios: ~330 modules, ~8 MB of heap) are idle on a platform without custom domains,
   * and every instance's memory counts when several run side by side.
   */
  private acme(): Promise<typeof AcmeClient> {
    this.library ??= import('acme-client').then((acme) => {
      // acme-client talks through its own axios instance: trust the extra roots there only.
      if (this.extraRoots) acme.axios.defaults.httpsAgent = new https.Agent({ ca: [...tls.rootCertificates, this.extraRoots] });
      return acme;
    });
    return this.library;
  }

  private async accountKey(): Promise<string> {
    const acme = await this.acme();
    const sealed = await this.o.repo.accountKey(this.o.directoryUrl);
    if (sealed) return this.o.secrets.open(sealed);
    const key = (await acme.crypto.createPrivateKey()).toString();
    return this.o.secrets.open(await this.o.repo.putAccountKey(this.o.directoryUrl, this.o.secrets.seal(key)));
  }

  private acmeClient(): Promise<AcmeClient.Client> {
    this.client ??= Promise.all([this.acme(), this.accountKey()]).then(([acme, accountKey]) => new acme.Client({ directoryUrl: this.o.directoryUrl, accountKey }));
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  async issue(hostname: string): Promise<IssuedCertificate> {
    const acme = await this.acme();
    const client = await this.acmeClient();
    const [key, csr] = await acme.crypto.createCsr({ commonName: hostname, altNames: [hostname] });
    const tokens: string[] = [];
    try {
      const certPem = await client.auto({
        csr,
        email: this.o.email,
        termsOfServiceAgreed: true,
        challengePriority: ['http-01'],
        // acme-client's own pre-check would resolve the name with the system's resolver; the CA checks anyway.
        skipChallengeVerification: true,
        challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
          if (challenge.type !== 'http-01') throw new Error(`unsupported challenge ${challenge.type}`);
          tokens.push(challenge.token);
          await this.o.repo.putChallenge(challenge.token, hostname, keyAuthorization);
        },
        challengeRemoveFn: async () => undefined,
      });
      const info = acme.crypto.readCertificateInfo(certPem);
      return { certPem, keyPem: key.toString(), expiresAt: info.notAfter };
    } finally {
      await this.o.repo.dropChallenges(tokens).catch(() => undefined);
    }
  }
}
