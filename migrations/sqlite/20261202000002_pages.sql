-- The web workbench: sessions are found by digest and swept by expiry; leaderboards, solved
-- marks and progress read a kata's submissions by verdict.
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX submissions_by_kata ON submissions (kata, mode, verdict);
