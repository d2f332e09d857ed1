-- Custom domains of hosted sites (issue 15; server/src/modules/domains).
--
-- A project claims a hostname; while unverified a claim blocks nobody (several projects may claim
-- one name), and once its DNS points at the project's site the claim is verified: then it is the
-- only one (the partial unique index), the platform obtains its certificate over ACME and serves
-- it by SNI. The certificate's private key is sealed with the platform's secret box.
CREATE TABLE site_domains (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  hostname text NOT NULL,
  verified_at timestamptz,
  cert_pem text,
  key_sealed text,
  cert_expires_at timestamptz,
  last_error text,
  -- The issuing (or renewing) instance's claim: one instance at a time per domain.
  lease_until timestamptz,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, hostname)
);
CREATE UNIQUE INDEX site_domains_verified_hostname ON site_domains (hostname) WHERE verified_at IS NOT NULL;
CREATE INDEX site_domains_hostname ON site_domains (hostname);

-- HTTP-01 answers in flight: whichever instance the CA reaches answers from here.
CREATE TABLE acme_challenges (
  token text PRIMARY KEY,
  hostname text NOT NULL,
  key_authorization text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The platform's ACME account key per directory (sealed), shared by every instance.
CREATE TABLE acme_accounts (
  directory_url text PRIMARY KEY,
  key_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
