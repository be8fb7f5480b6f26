-- Concept drills: attempts (the key stays here until the learner answers), the review schedule
-- (FSRS cards for drill items and solved katas) and the daily streak.
CREATE TABLE drill_attempts (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    drill_set   TEXT    NOT NULL,
    item        TEXT    NOT NULL,
    presented   TEXT    NOT NULL, -- JSON: what the learner sees
    answer_key  TEXT    NOT NULL, -- JSON: never sent before answered_at is set
    started_at  INTEGER NOT NULL,
    answered_at INTEGER,
    response    TEXT,             -- JSON
    result      TEXT,             -- JSON: the graded result
    score       REAL,
    correct     INTEGER
);
CREATE INDEX drill_attempts_by_user ON drill_attempts (user_id, started_at);
CREATE INDEX drill_attempts_by_item ON drill_attempts (drill_set, item);

CREATE TABLE review_cards (
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL CHECK (kind IN ('drill', 'kata')),
    subject        TEXT    NOT NULL, -- `set/item` or a kata slug
    due            INTEGER NOT NULL, -- ms since the epoch
    stability      REAL    NOT NULL,
    difficulty     REAL    NOT NULL,
    elapsed_days   INTEGER NOT NULL,
    scheduled_days INTEGER NOT NULL,
    reps           INTEGER NOT NULL,
    lapses         INTEGER NOT NULL,
    state          INTEGER NOT NULL,
    last_review    INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind, subject)
);
CREATE INDEX review_cards_due ON review_cards (user_id, due);

CREATE TABLE streaks (
    user_id  INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    current  INTEGER NOT NULL,
    best     INTEGER NOT NULL,
    last_day INTEGER NOT NULL -- days since the epoch, UTC
);
