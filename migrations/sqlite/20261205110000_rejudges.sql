-- Rejudges (`db::rejudges`): an instructor grades a kata's submissions again against a
-- candidate version (a stdin/stdout package stored on the service) without touching them, and
-- sees which verdicts would change before making it live. A rejudge is jobs of its own in the
-- one queue, at the rejudge priority (below runs and submits): `jobs.rejudge_id` names it, and
-- its results go to `rejudge_results`, never to the submission. So a submission may now have
-- more than one job: its own (at most one, `rejudge_id IS NULL`) and one per rejudge.
CREATE TABLE rejudges (
    id           INTEGER PRIMARY KEY,
    slug         TEXT    NOT NULL REFERENCES katas (slug),
    version      INTEGER NOT NULL,
    scope        TEXT    NOT NULL CHECK (scope IN ('accepted', 'all')),
    requested_by INTEGER NOT NULL REFERENCES users (id),
    created_at   INTEGER NOT NULL
);

CREATE TABLE rejudge_results (
    rejudge_id    INTEGER NOT NULL REFERENCES rejudges (id),
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    verdict       TEXT    NOT NULL,
    first_failed  TEXT,
    report        TEXT    NOT NULL,
    PRIMARY KEY (rejudge_id, submission_id)
);

-- SQLite cannot drop a column's UNIQUE: the table is rebuilt with the same columns.
CREATE TABLE jobs_rebuilt (
    id               INTEGER PRIMARY KEY,
    submission_id    INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL CHECK (kind IN ('cpu', 'gpu')),
    state            TEXT    NOT NULL CHECK (state IN ('queued', 'leased', 'done')),
    worker_id        TEXT,
    lease_token      TEXT,
    lease_expires_at INTEGER,
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT,
    created_at       INTEGER NOT NULL,
    priority         INTEGER NOT NULL DEFAULT 1,
    phase            TEXT    NOT NULL DEFAULT 'verdict' CHECK (phase IN ('verdict', 'measure')),
    rejudge_id       INTEGER REFERENCES rejudges (id)
);
INSERT INTO jobs_rebuilt (id, submission_id, kind, state, worker_id, lease_token,
    lease_expires_at, attempts, last_error, created_at, priority, phase)
  SELECT id, submission_id, kind, state, worker_id, lease_token, lease_expires_at, attempts,
    last_error, created_at, priority, phase FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_rebuilt RENAME TO jobs;
CREATE INDEX jobs_waiting ON jobs (state, kind, id);
CREATE INDEX jobs_claim_order ON jobs (state, kind, priority, id);
CREATE UNIQUE INDEX jobs_own ON jobs (submission_id) WHERE rejudge_id IS NULL;
CREATE UNIQUE INDEX jobs_rejudged ON jobs (rejudge_id, submission_id) WHERE rejudge_id IS NOT NULL;
