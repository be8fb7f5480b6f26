-- The generation of the newest catalogue synced into `katas` (one row). A replica whose compiled
-- catalogue is older (a rolling deploy's old binary) serves without changing what is listed.
CREATE TABLE catalogue_generation (
    id          BIGINT  PRIMARY KEY CHECK (id = 1),
    generation  BIGINT  NOT NULL,
    fingerprint TEXT    NOT NULL,
    synced_at   BIGINT  NOT NULL
);
