-- Whether learners see a published version: `listed` (the catalogue shows it), `unlisted`
-- (hidden from learners; instructors may open and submit to it, previewing it as a learner
-- would) or `retired` (still readable, past work kept, no new submissions). A version
-- published later starts as the kata's live version was (`db::kata_versions::publish`).
ALTER TABLE kata_versions ADD COLUMN status TEXT NOT NULL DEFAULT 'listed'
    CHECK (status IN ('listed', 'unlisted', 'retired'));
