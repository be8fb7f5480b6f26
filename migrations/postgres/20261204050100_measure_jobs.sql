-- A measurement is its own unit of work: once an accepted submit's verdict is published, its
-- job turns into a `measure` job at the lowest priority, claimed only by measuring loops, so no
-- verdict waits behind a measurement; a measurement lost with its worker is leased again like
-- any job, and the published verdict is never graded again for it.
ALTER TABLE jobs ADD COLUMN phase TEXT NOT NULL DEFAULT 'verdict' CHECK (phase IN ('verdict', 'measure'));
