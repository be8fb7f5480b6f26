-- A package's sandbox checks handed to a worker (`db::package_checks`): the replica that took
-- the upload cannot run them itself (it has no sandbox, or the kata is a GPU kata and its
-- grader has no device), so it queues the candidate's canonical archive here and waits for a
-- worker that can — any worker grading function packages, or one with a GPU for a GPU kata —
-- to claim it under a lease, run the checks and write `outcome` (JSON of
-- `worker_wire::CheckOutcome`). The replica deletes the row once it has read the outcome or
-- given up; nothing here is ever live.
CREATE TABLE package_checks (
    id            INTEGER PRIMARY KEY,
    slug          TEXT    NOT NULL,
    content_hash  TEXT    NOT NULL,
    gpu           INTEGER NOT NULL,
    archive       BLOB    NOT NULL,
    created_at    INTEGER NOT NULL,
    worker_id     TEXT,
    lease_token   TEXT,
    lease_expires_at INTEGER,
    outcome       TEXT
);
