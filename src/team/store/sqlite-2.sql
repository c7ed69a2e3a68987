-- Layout 2 (SQLite), from layout 1: deadlines, escalation and webhooks.
-- A question's deadline (ms since the epoch) and its length, to start again from when it is
-- escalated or asked again; whom it escalates to; when it was escalated, and when it expired
-- (nobody answered in time: its asker gets `unavailable`).
ALTER TABLE questions ADD COLUMN deadline_at INTEGER;
ALTER TABLE questions ADD COLUMN patience INTEGER;
ALTER TABLE questions ADD COLUMN escalate_to TEXT;
ALTER TABLE questions ADD COLUMN escalated_at INTEGER;
ALTER TABLE questions ADD COLUMN expired_at INTEGER;
CREATE INDEX IF NOT EXISTS due ON questions (deadline_at)
    WHERE closed_at IS NULL AND expired_at IS NULL;

-- Where to tell a person or group (`addressed`; NULL: the questions for anyone) that a question
-- waits for them: a Slack-compatible webhook.
CREATE TABLE IF NOT EXISTS hooks (
    id INTEGER PRIMARY KEY,
    addressed TEXT,
    url TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- The notices due on the webhooks, written with what caused them (a question asked or
-- escalated) and sent by whichever server claims them first: a server that stops between the
-- two leaves them to another, or to itself when it starts again.
CREATE TABLE IF NOT EXISTS notices (
    id INTEGER PRIMARY KEY,
    question INTEGER NOT NULL REFERENCES questions (id),
    url TEXT NOT NULL,
    event TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    next_at INTEGER NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    sent_at INTEGER,
    given_up_at INTEGER
);
CREATE INDEX IF NOT EXISTS notices_due ON notices (next_at)
    WHERE sent_at IS NULL AND given_up_at IS NULL;
