-- The team inbox's database, layout 1 (PostgreSQL). Times are ms since the epoch; JSON is kept
-- as the text the asker sent, so that a step posted again is found by its exact view.
CREATE TABLE IF NOT EXISTS interview_layout (layout INTEGER NOT NULL);

CREATE TABLE IF NOT EXISTS tokens (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'agent')),
    groups TEXT NOT NULL DEFAULT '',
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);

-- One row a request asked; closed once the asker's plugin has finished it.
CREATE TABLE IF NOT EXISTS questions (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL,
    agent TEXT NOT NULL,
    asker TEXT NOT NULL,
    folder TEXT,
    addressed TEXT,
    asked_at BIGINT NOT NULL,
    closed_at BIGINT,
    status TEXT
);
-- A request has one open question at a time: an asker that comes back finds it.
CREATE UNIQUE INDEX IF NOT EXISTS open_question ON questions (agent, key)
    WHERE closed_at IS NULL;

-- Each widget the asker's plugin put up, and the one reply it got.
CREATE TABLE IF NOT EXISTS steps (
    question BIGINT NOT NULL REFERENCES questions (id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    view TEXT NOT NULL,
    asked_at BIGINT NOT NULL,
    reply TEXT,
    answered_by TEXT,
    answered_at BIGINT,
    PRIMARY KEY (question, seq)
);

CREATE TABLE IF NOT EXISTS audit (
    id BIGSERIAL PRIMARY KEY,
    at BIGINT NOT NULL,
    event TEXT NOT NULL,
    actor TEXT NOT NULL,
    address TEXT,
    question BIGINT,
    seq BIGINT,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at);
