-- What a stored package holds (`db::kata_packages`): `io` (a stdin/stdout kata) or `function`
-- (a function kata built from its files). A worker is given a package's jobs only when its
-- hello says it grades that kind. NULL: stored before this was recorded; only a worker that
-- grades both kinds is given those.
ALTER TABLE kata_packages ADD COLUMN kind TEXT CHECK (kind IN ('io', 'function'));
