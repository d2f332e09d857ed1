-- Hosted code runs as an unprivileged identity of its own per project, so tenants can neither read
-- nor signal each other's processes or files. The number comes from a sequence in the shared
-- database, so every instance (and every restart) gives a project the same uid, and no two
-- projects ever share one. The range starts far above any system or login user's uid.
CREATE SEQUENCE site_uid_seq AS integer START WITH 1900000000 MINVALUE 1900000000 MAXVALUE 2099999999;
-- A random start per installation: two platforms on one host (separate databases) would
-- otherwise hand their first projects the same uids.
SELECT setval('site_uid_seq', 1900000000 + (random() * 99000000)::integer);

CREATE TABLE site_identities (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  uid integer NOT NULL UNIQUE DEFAULT nextval('site_uid_seq')
);
