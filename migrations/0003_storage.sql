-- Stored files of a project. The bytes live in the ObjectStore under storage_key; a row exists
-- only once its bytes are complete (uploads write bytes first, then the row), so a listed file
-- can always be downloaded. share_segment is a random, unguessable part of the public link:
-- knowing an object_id alone is not enough to read a file.
CREATE TABLE storage_objects (
  object_id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  storage_key text NOT NULL,
  name text NOT NULL,
  object_type text NOT NULL,
  object_size bigint NOT NULL CHECK (object_size >= 0),
  etag text NOT NULL,
  share_segment text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Listing newest first, page by page; also serves the per-project sums of the quota check.
CREATE INDEX storage_objects_project_idx ON storage_objects (project_id, created_at DESC, object_id);
