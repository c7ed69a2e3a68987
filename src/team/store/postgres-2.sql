-- Layout 2 (PostgreSQL), from layout 1: deadlines, escalation and webhooks.
-- A question's deadline (ms since the epoch) and its length, to start again from when it is
-- escalated or asked again; whom it escalates to; when it was escalated, and when it expired
-- (nobody answered in time: its asker gets `unavailable`).
ALTER TABLE questions
    ADD COLUMN IF NOT EXISTS deadline_at BIGINT,
    ADD COLUMN IF NOT EXISTS patience BIGINT,
    ADD COLUMN IF NOT EXISTS escalate_to TEXT,
    ADD COLUMN IF NOT EXISTS escalated_at BIGINT,
    ADD COLUMN IF NOT EXISTS expired_at BIGINT;
CREATE INDEX IF NOT EXISTS due ON questions (deadline_at)
    WHERE closed_at IS NULL AND expired_at IS NULL;

-- Where to tell a person or group (`addressed`; NULL: the questions for anyone) that a question
-- waits for them: a Slack-compatible webhook.
CREATE TABLE IF NOT EXISTS hooks (
    id BIGSERIAL PRIMARY KEY,
    addressed TEXT,
    url TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- The notices due on the webhooks, written with what caused them (a question asked or
-- escalated) and sent by whichever server claims them first: a server that stops between the
-- two leaves them to another, or to itself when it starts again.
CREATE TABLE IF NOT EXISTS notices (
    id BIGSERIAL PRIMARY KEY,
    question BIGINT NOT NULL REFERENCES questions (id),
    url TEXT NOT NULL,
    event TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    next_at BIGINT NOT NULL,
    tries BIGINT NOT NULL DEFAULT 0,
    sent_at BIGINT,
    given_up_at BIGINT
);
CREATE INDEX IF NOT EXISTS notices_due ON notices (next_at)
    WHERE sent_at IS NULL AND given_up_at IS NULL;
