-- Files are private unless the developer shares them or their folder is public.
--
-- share_segment is now the state of a file's share link: null while the file is not shared (new
-- uploads are not), a random segment while it is. Every file stored before this migration keeps
-- the segment it had, so the share links handed out until now keep working until the developer
-- stops sharing them; sharing again later makes a new segment.
ALTER TABLE storage_objects ALTER COLUMN share_segment DROP NOT NULL;

-- A folder rule can make the files it governs public: readable by anyone at their public URL,
-- until the flag is cleared or the rule removed. No folder is public until the developer says so.
ALTER TABLE storage_rules ADD COLUMN public boolean NOT NULL DEFAULT false;

-- Who a signed link was made for, so each download checks that caller against the rules as they
-- are then: 'developer' (the console, or the secret key alone: no rule applies), 'key' (the
-- publishable key alone), 'user' (an end user, created_by; once removed, created_by is null and
-- the link ends). Links made before this migration by an end user are theirs; the others (the
-- console, either key alone: not told apart until now) stay as they were, until they expire
-- within 7 days at most.
ALTER TABLE storage_signed_links ADD COLUMN issuer text NOT NULL DEFAULT 'developer' CHECK (issuer IN ('developer', 'key', 'user'));
UPDATE storage_signed_links SET issuer = 'user' WHERE created_by IS NOT NULL;
