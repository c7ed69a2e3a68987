-- The team inbox's database, layout 1 (SQLite). Times are ms since the epoch.
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'agent')),
    groups TEXT NOT NULL DEFAULT '',
    hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);

-- One row a request asked; closed once the asker's plugin has finished it.
CREATE TABLE IF NOT EXISTS questions (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    agent TEXT NOT NULL,
    asker TEXT NOT NULL,
    folder TEXT,
    addressed TEXT,
    asked_at INTEGER NOT NULL,
    closed_at INTEGER,
    status TEXT
);
-- A request has one open question at a time: an asker that comes back finds it.
CREATE UNIQUE INDEX IF NOT EXISTS open_question ON questions (agent, key)
    WHERE closed_at IS NULL;

-- Each widget the asker's plugin put up, and the one reply it got.
CREATE TABLE IF NOT EXISTS steps (
    question INTEGER NOT NULL REFERENCES questions (id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    view TEXT NOT NULL,
    asked_at INTEGER NOT NULL,
    reply TEXT,
    answered_by TEXT,
    answered_at INTEGER,
    PRIMARY KEY (question, seq)
);

CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    event TEXT NOT NULL,
    actor TEXT NOT NULL,
    address TEXT,
    question INTEGER,
    seq INTEGER,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at);
