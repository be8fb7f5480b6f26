-- A custom-input run: a `run` of the learner's program on one input of their own (JSON, at most
-- 64 KiB, admitted by the kata before it was stored) instead of the sample cases. NULL for
-- every other submission.
ALTER TABLE submissions ADD COLUMN custom_input TEXT;
