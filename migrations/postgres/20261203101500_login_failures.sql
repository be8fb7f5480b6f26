-- Failed log-ins, shared by every replica: one leaky bucket per account name and per client
-- address (`scope`), `empty_at` the epoch ms at which the bucket will have drained. Names are
-- counted whether or not such an account exists. Rows whose bucket is empty are pruned.
CREATE TABLE login_failures (
    scope    TEXT    NOT NULL CHECK (scope IN ('account', 'address')),
    subject  TEXT    NOT NULL,
    empty_at BIGINT  NOT NULL,
    PRIMARY KEY (scope, subject)
);
CREATE INDEX login_failures_by_empty_at ON login_failures (empty_at);
