-- The language a signed-in learner chose for the pages ('en' or 'zh'); NULL until they choose,
-- when the browser's Accept-Language decides.
ALTER TABLE users ADD COLUMN lang TEXT CHECK (lang IN ('en', 'zh'));
