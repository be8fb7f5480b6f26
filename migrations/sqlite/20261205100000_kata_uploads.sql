-- Each package upload and its verification report (`db::kata_uploads`). A stdin/stdout
-- package's verification runs its programs in the sandbox and may outlast a request: the upload
-- is answered "checking" and its report read here later, from any replica. `report` is the JSON
-- of `services::publishing::Report`, NULL while the check runs.
CREATE TABLE kata_uploads (
    id          INTEGER PRIMARY KEY,
    slug        TEXT    NOT NULL,
    uploaded_by INTEGER NOT NULL REFERENCES users (id),
    report      TEXT,
    created_at  INTEGER NOT NULL,
    finished_at INTEGER
);
