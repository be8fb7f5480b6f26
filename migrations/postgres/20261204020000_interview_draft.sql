-- The interview's own editor draft: reloading the page, answering a drill or reopening the
-- interview brings back what the learner typed, never the starter. NULL until the first save.
ALTER TABLE interviews ADD COLUMN draft TEXT;
