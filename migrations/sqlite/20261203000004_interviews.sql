-- Interview mode: a timed session of one kata and drill items; its report is kept.
CREATE TABLE interviews (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kata        TEXT    NOT NULL,
    started_at  INTEGER NOT NULL,
    ends_at     INTEGER NOT NULL,
    finished_at INTEGER,
    hints_used  INTEGER NOT NULL DEFAULT 0,
    report      TEXT -- JSON, once finished
);
CREATE INDEX interviews_by_user ON interviews (user_id, id);
ALTER TABLE drill_attempts ADD COLUMN interview_id INTEGER REFERENCES interviews (id) ON DELETE CASCADE;
