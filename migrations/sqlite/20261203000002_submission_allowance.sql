-- The per-user submission rate limit, shared by every replica (GCRA): `tat` is the theoretical
-- arrival time (epoch ms) of the user's next submission at the sustained rate.
CREATE TABLE submission_allowance (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    tat     INTEGER NOT NULL
);
