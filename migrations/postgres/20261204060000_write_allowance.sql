-- Every per-user write budget, shared by every replica (GCRA), one row per user and kind of
-- write (`submission`, `drill_attempt`, `interview`, …): `tat` is the theoretical arrival time
-- (epoch ms) of that user's next write of that kind at the sustained rate. Kinds are named by
-- the server (`db::allowance::Write`), so a new kind needs no migration.
CREATE TABLE write_allowance (
    user_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    tat     BIGINT  NOT NULL,
    PRIMARY KEY (user_id, kind)
);

-- Submissions keep the allowance they had. `submission_allowance` stays for now: during a
-- rolling deploy an older replica still spends from it.
INSERT INTO write_allowance (user_id, kind, tat)
SELECT user_id, 'submission', tat FROM submission_allowance;
