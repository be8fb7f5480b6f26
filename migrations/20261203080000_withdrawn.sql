-- A submission that ended without being graded: cancelled by its learner or an admin while it
-- waited, or timed out waiting for a worker that can grade it (a GPU kata without a GPU
-- worker). Its report says why; it is not the learner's failure and does not count as an attempt.
ALTER TABLE submissions ADD COLUMN withdrawn TEXT CHECK (withdrawn IN ('cancelled', 'timed_out'));
