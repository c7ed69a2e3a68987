// A team inbox for the remote-client tests: `interview inbox serve` on a fresh SQLite database
// in a folder of its own, tokens made for it, and a person's side of it through the HTTP API,
// as the team page uses it.

import { join } from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

/** Starts `interview inbox serve` (the executable `interview`) on 127.0.0.1, with a token for
 * each of `holders` (`{ agent: ["--agent", "ci"] }`; the first makes its database): its URL,
 * those `tokens` by the same names, and `stop`, which ends it and removes its folder. */
export async function startTeam(interview, holders) {
  const place = mkdtempSync(join(tmpdir(), "interview-team-"));
  const db = join(place, "team.sqlite3");
  const token = (...who) =>
    execFileSync(interview, ["inbox", "token", "add", "--db", db, ...who], { encoding: "utf8" }).trim();
  const tokens = Object.fromEntries(Object.entries(holders).map(([name, who]) => [name, token(...who)]));
  const server = spawn(interview, ["inbox", "serve", "--db", db, "--listen", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stop = () => {
    server.kill();
    rmSync(place, { recursive: true, force: true });
  };
  // It says where it listens once it does (after a line about the database it made, if new).
  const lines = createInterface({ input: server.stderr });
  const said = await new Promise((done) => {
    lines.on("line", (line) => line.includes(" on http") && done(line));
    server.on("exit", (code) => done(`exited (${code})`));
  });
  assert.ok(said.includes(" on http"), `interview inbox serve did not start: ${said}`);
  const url = said.split(" on ")[1].trim().replace(/\/$/, "");
  return { url, tokens, stop };
}

/** The person whose token is `bearer`, on the team inbox at `url`: its HTTP API, the questions
 * open to them, and the first open one (with `prompt`, if given) once it has come. */
export function person(url, bearer) {
  async function api(path, body) {
    const response = await fetch(`${url}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: body && JSON.stringify(body),
    });
    return [response.status, await response.json()];
  }
  async function openQuestions() {
    const [status, listed] = await api("/api/questions");
    assert.equal(status, 200, JSON.stringify(listed));
    return listed.questions;
  }
  async function openQuestion(prompt) {
    for (let tries = 0; tries < 300; tries++) {
      const open = await openQuestions();
      const asked = open.find((question) => prompt === undefined || question.frame.prompt === prompt);
      if (asked) return asked;
      await new Promise((wait) => setTimeout(wait, 100));
    }
    throw new Error(`no question ${prompt === undefined ? "" : JSON.stringify(prompt)} came to the team inbox`);
  }
  return { api, openQuestions, openQuestion };
}
