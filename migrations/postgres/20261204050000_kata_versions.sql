-- Every version of a kata package the service has published, identified by the SHA-256 of its
-- files and numbered 1, 2, … per kata in publishing order. `api` is the learner-facing API
-- (JSON, `katas::learner_api`) and `starter` the starter of that version, so code written for
-- an old version stays readable and its differences from the live API can be shown.
CREATE TABLE kata_versions (
    slug         TEXT    NOT NULL REFERENCES katas (slug),
    number       BIGINT  NOT NULL CHECK (number >= 1),
    content_hash TEXT    NOT NULL,
    api_hash     TEXT    NOT NULL,
    api          TEXT    NOT NULL,
    starter      TEXT    NOT NULL,
    published_at BIGINT  NOT NULL,
    PRIMARY KEY (slug, number),
    UNIQUE (slug, content_hash)
);

-- The version learners are served (set by the newest catalogue synced).
ALTER TABLE katas ADD COLUMN live_version BIGINT;
-- The version each piece of learners' work was written for; NULL for work from before versions
-- were recorded.
ALTER TABLE submissions ADD COLUMN kata_version BIGINT;
ALTER TABLE drafts ADD COLUMN kata_version BIGINT;
ALTER TABLE interviews ADD COLUMN kata_version BIGINT;
