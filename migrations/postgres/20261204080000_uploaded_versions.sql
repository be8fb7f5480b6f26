-- Versions an instructor uploads (`db::kata_versions::publish_upload`). A build serves every
-- version whose `grading_hash` (the package's hash without its statements,
-- `katas::package_hash::grading_hash`) equals its own, so a statement fix goes live without a
-- rebuild; `statement`/`statement_zh` hold an uploaded version's statements (NULL for a
-- version published by a build, whose statements are compiled into it). `published_by` is the
-- instructor or admin who uploaded it.
ALTER TABLE kata_versions ADD COLUMN grading_hash TEXT;
ALTER TABLE kata_versions ADD COLUMN source TEXT NOT NULL DEFAULT 'build'
    CHECK (source IN ('build', 'upload'));
ALTER TABLE kata_versions ADD COLUMN statement TEXT;
ALTER TABLE kata_versions ADD COLUMN statement_zh TEXT;
ALTER TABLE kata_versions ADD COLUMN published_by BIGINT REFERENCES users (id);
