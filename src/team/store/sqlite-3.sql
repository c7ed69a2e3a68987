-- Layout 3 (SQLite), from layout 2: an answer belongs to the run that asked it.
-- The asking run (a random id of the asking process): each run has a question of its own, so
-- that an answer never reaches a run that did not ask it.
ALTER TABLE questions ADD COLUMN run TEXT NOT NULL DEFAULT '';
-- When the asker was last heard from (a step put up, a poll begun): one silent for longer than
-- the grace period went away, and its question is withdrawn.
ALTER TABLE questions ADD COLUMN seen_at INTEGER;
-- The question of an earlier run of the same request, if there was one; whether what the
-- person answered to it was played back into this one; and, on that earlier question, which
-- question took it over (once only).
ALTER TABLE questions ADD COLUMN again_of INTEGER;
ALTER TABLE questions ADD COLUMN resumed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE questions ADD COLUMN taken_by INTEGER;
-- A step that asks for a secret: its reply is erased once its asker has it (or will never
-- have it), and the audit never holds it.
ALTER TABLE steps ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS secrets ON steps (question) WHERE secret AND reply IS NOT NULL;
CREATE INDEX IF NOT EXISTS closed ON questions (closed_at);
DROP INDEX IF EXISTS open_question;
CREATE UNIQUE INDEX IF NOT EXISTS open_run ON questions (agent, key, run)
    WHERE closed_at IS NULL;
CREATE INDEX IF NOT EXISTS runs_of_a_request ON questions (agent, key, closed_at);
CREATE INDEX IF NOT EXISTS heard ON questions (seen_at) WHERE closed_at IS NULL;
-- Layout 2 left questions open for a later run to be handed their answers: no run may be now.
UPDATE questions SET
    closed_at = CAST(unixepoch('subsec') * 1000 AS INTEGER),
    status = iif(expired_at IS NULL, 'withdrawn', 'expired')
  WHERE closed_at IS NULL;
