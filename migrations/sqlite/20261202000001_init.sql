-- Accounts. Passwords are argon2id hashes; API tokens are stored as SHA-256 digests only.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE,
    password_hash TEXT,
    role          TEXT    NOT NULL CHECK (role IN ('learner', 'instructor', 'admin')),
    created_at    INTEGER NOT NULL
);

CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_sha256 TEXT    NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL
);

CREATE TABLE sessions (
    id_sha256  TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
);

-- Synced from the compiled catalogue at start-up.
CREATE TABLE katas (
    slug       TEXT    PRIMARY KEY,
    title      TEXT    NOT NULL,
    summary    TEXT    NOT NULL,
    difficulty TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('cpu', 'gpu')),
    topics     TEXT    NOT NULL, -- JSON array
    position   INTEGER NOT NULL,
    listed     INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE submissions (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id),
    kata         TEXT    NOT NULL REFERENCES katas (slug),
    mode         TEXT    NOT NULL CHECK (mode IN ('run', 'submit')),
    source       TEXT    NOT NULL,
    -- queued → compiling → running → done
    state        TEXT    NOT NULL CHECK (state IN ('queued', 'compiling', 'running', 'measuring', 'done')),
    verdict      TEXT,
    passed       INTEGER,
    total        INTEGER,
    perf_ratio   REAL,
    report       TEXT, -- the GradeReport JSON
    created_at   INTEGER NOT NULL,
    finished_at  INTEGER
);
CREATE INDEX submissions_by_user ON submissions (user_id, kata, id);

CREATE TABLE case_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    case_group    TEXT    NOT NULL,
    outcome       TEXT    NOT NULL,
    time_ms       REAL    NOT NULL,
    PRIMARY KEY (submission_id, position)
);

CREATE TABLE workers (
    id           TEXT    PRIMARY KEY,
    name         TEXT    NOT NULL,
    capabilities TEXT    NOT NULL, -- JSON
    builtin      INTEGER NOT NULL,
    last_seen    INTEGER NOT NULL
);

-- One job per submission. A lease belongs to one worker until it expires; only the holder of
-- the current lease token may finish the job, so a vanished worker's late result is refused.
CREATE TABLE jobs (
    id               INTEGER PRIMARY KEY,
    submission_id    INTEGER NOT NULL UNIQUE REFERENCES submissions (id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL CHECK (kind IN ('cpu', 'gpu')),
    state            TEXT    NOT NULL CHECK (state IN ('queued', 'leased', 'done')),
    worker_id        TEXT,
    lease_token      TEXT,
    lease_expires_at INTEGER,
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT,
    created_at       INTEGER NOT NULL
);
CREATE INDEX jobs_waiting ON jobs (state, kind, id);
