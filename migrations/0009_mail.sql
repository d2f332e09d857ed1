-- Hosted mail (issue 11): one custom domain per project, its DKIM key, and mailboxes on it.
--
-- smtp_domains.domain: lower case, ASCII (an international name in its punycode form). Several
-- projects may claim a name while it is unverified (a claim must not block the real owner: only
-- the owner can publish the claim's own DKIM key); once one project verified it, it is theirs
-- alone (the partial unique index). dkim_private_key is sealed by the platform's secret box (never plain);
-- dkim_public_key is the base64 SPKI DER published at {dkim_selector}._domainkey.
-- mail_accounts.password_hash: '{ARGON2ID}$argon2id$v=19$m=65536,t=3,p=1$<salt>$<hash>', a
-- scheme Dovecot verifies itself. quota_bytes: 5 GiB for new mailboxes.
CREATE TABLE smtp_domains (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL UNIQUE REFERENCES projects(id) ON DELETE CASCADE,
  domain text NOT NULL CHECK (domain = lower(domain) AND length(domain) BETWEEN 4 AND 253),
  verified boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  dkim_selector text NOT NULL,
  dkim_private_key text NOT NULL,
  dkim_public_key text NOT NULL,
  -- The last verification's outcome per record ({"mx": true, "spf": false, ...}): what the
  -- console shows as found or missing until the next check.
  dns_check jsonb,
  dns_checked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX smtp_domains_verified_domain_key ON smtp_domains (domain) WHERE verified;
CREATE INDEX smtp_domains_domain_idx ON smtp_domains (domain);

CREATE TABLE mail_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  domain_id uuid NOT NULL REFERENCES smtp_domains(id) ON DELETE CASCADE,
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND position('@' in email) > 1),
  password_hash text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  quota_bytes bigint NOT NULL DEFAULT 5368709120 CHECK (quota_bytes >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_accounts_domain_idx ON mail_accounts (domain_id, created_at);

-- What the mail servers read (Postfix and Dovecot, through a read-only role granted SELECT on
-- these views only): verified domains, and the mailboxes on them. An unverified or removed
-- domain, and its mailboxes, are invisible to them.
CREATE VIEW mail_domains_view AS
  SELECT d.domain
  FROM smtp_domains d
  WHERE d.verified;

CREATE VIEW mail_users_view AS
  SELECT a.email, d.domain, split_part(a.email, '@', 1) AS local_part, a.password_hash, a.quota_bytes, a.active
  FROM mail_accounts a
  JOIN smtp_domains d ON d.id = a.domain_id
  WHERE d.verified;
