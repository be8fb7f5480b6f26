-- What the custom-input form of a function kata built from its package starts from (its first
-- sample's input and an example per entry point, as JSON: `katas::custom::InputExamples`), made
-- by the version's sandboxed judge when it was published: no replica can read the kata's input
-- type itself. NULL: a stdin/stdout package (no custom input), or stored before this was made.
ALTER TABLE kata_packages ADD COLUMN input_examples TEXT;
