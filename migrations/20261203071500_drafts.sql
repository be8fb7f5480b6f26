-- No lost work: the editor's text per learner and kata, autosaved (one row, replaced on every
-- save), and the hints each learner has opened (they stay open, and will count in interviews).
CREATE TABLE drafts (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kata       TEXT    NOT NULL,
    source     TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, kata)
);

CREATE TABLE hints_opened (
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kata      TEXT    NOT NULL,
    hint      INTEGER NOT NULL CHECK (hint >= 0),
    opened_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, kata, hint)
);
