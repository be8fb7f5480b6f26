-- Claims take interactive runs (0) first, then submits (1), then rejudges (2); oldest first
-- within one priority.
ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;
UPDATE jobs SET priority = 0 WHERE submission_id IN (SELECT id FROM submissions WHERE mode = 'run');
CREATE INDEX jobs_claim_order ON jobs (state, kind, priority, id);
