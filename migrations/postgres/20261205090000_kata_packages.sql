-- Stdin/stdout packages published to the running service (`db::kata_packages`): the package's
-- files as one canonical archive, named by their content hash (`katas::package_hash`), which
-- the version's `kata_versions.content_hash` names too. A replica serves such a kata from this
-- row; a worker that has not seen a version fetches it by hash from any replica.
CREATE TABLE kata_packages (
    content_hash TEXT    PRIMARY KEY,
    archive      BYTEA   NOT NULL,
    stored_at    BIGINT  NOT NULL
);
