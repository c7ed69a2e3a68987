//! What every store does alike: each case runs on SQLite, and on PostgreSQL too when
//! `INTERVIEW_TEST_POSTGRES` names a server (a URL whose user may create databases; CI sets it),
//! each time in a database of its own.

use serde_json::json;

use super::*;

pub(super) fn person(name: &str, groups: &[&str]) -> Holder {
    Holder {
        kind: Kind::Person,
        name: name.into(),
        groups: groups.iter().map(|g| g.to_string()).collect(),
    }
}

pub(super) fn post(key: &str, prompt: &str, after: Option<i64>, to: Option<&str>) -> StepPost {
    StepPost {
        key: key.into(),
        run: "r1".into(),
        from: json!({"command": "ask"}),
        folder: Some("/src/app".into()),
        to: to.map(str::to_owned),
        kind: "text".into(),
        view: json!({"frame": {"prompt": prompt}, "request": {}}),
        after,
        secret: false,
        deadline: None,
    }
}

/// Every reply reads as a reply to a step of any kind (the server's widget readers are tested
/// with the server).
pub(super) fn any_kind(_: &str) -> bool {
    true
}

/// Runs `case` on a fresh SQLite store, and on a fresh PostgreSQL database when one is given.
fn on_every_store(case: fn(&dyn Store)) {
    let dir = tempfile::tempdir().unwrap();
    case(&sqlite::Sqlite::open(&dir.path().join("team.sqlite3"), Access::Create).unwrap());
    #[cfg(feature = "postgres")]
    if let Some(database) = scratch::Database::create() {
        case(&postgres::Postgres::open(&database.url, Access::Create).unwrap());
    }
}

#[test]
fn a_step_is_answered_once_and_the_second_answer_is_told_who_was_first() {
    on_every_store(|store| {
        let at = store
            .post_step("ci", &post("k1", "Name?", None, None), "10.0.0.1")
            .unwrap();
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Waiting);
        let (ann, bob) = (person("ann", &[]), person("bob", &[]));
        let reply = json!({"submitted": "Ada"});
        assert_eq!(
            store
                .answer(&ann, at, &reply, "10.0.0.2", &any_kind)
                .unwrap(),
            Answered::Accepted
        );
        let second = store.answer(&bob, at, &json!({"submitted": "Bo"}), "10.0.0.3", &any_kind);
        assert!(
            matches!(second.unwrap(), Answered::Taken { by, .. } if by == "ann"),
            "the second answer is refused"
        );
        assert_eq!(
            store.reply("ci", at).unwrap(),
            ReplyState::Replied {
                reply,
                by: "ann".into()
            }
        );
        // Another agent cannot read it.
        assert_eq!(store.reply("other", at).unwrap(), ReplyState::Unknown);
    });
}

#[test]
fn a_retried_or_resumed_step_is_the_same_step_and_a_new_view_is_the_next() {
    on_every_store(|store| {
        let first = store
            .post_step("ci", &post("k1", "Name?", None, None), "a")
            .unwrap();
        // The same post again (the server restarted before the asker heard back): same step.
        let again = store
            .post_step("ci", &post("k1", "Name?", None, None), "a")
            .unwrap();
        assert_eq!(first, again);
        let ann = person("ann", &[]);
        store
            .answer(&ann, first, &json!({"submitted": ""}), "b", &any_kind)
            .unwrap();
        assert_eq!(
            store.progress(&ann, first.question).unwrap(),
            Some(Progress {
                seq: 1,
                answered: true,
                closed: None,
            })
        );
        // The plugin refused it: the same question with its error is the next step.
        let refused = store
            .post_step("ci", &post("k1", "Name? (required)", Some(1), None), "a")
            .unwrap();
        assert_eq!((refused.question, refused.seq), (first.question, 2));
        // An answer to a step the asker has left is refused, naming who answered it.
        let late = store
            .answer(
                &person("bob", &[]),
                first,
                &json!({"submitted": "x"}),
                "c",
                &any_kind,
            )
            .unwrap();
        assert!(matches!(late, Answered::Taken { by, .. } if by == "ann"));
        // The run posting its first step again (it lost the server's answer) finds it,
        // answered, and then the open one.
        let resumed = store
            .post_step("ci", &post("k1", "Name?", None, None), "a")
            .unwrap();
        assert_eq!(resumed, first);
        store.finish("ci", first.question, "finished", "a").unwrap();
        assert!(store.open_questions(&ann).unwrap().is_empty());
        assert_eq!(
            store
                .progress(&ann, first.question)
                .unwrap()
                .unwrap()
                .closed,
            Some(Closed::Finished)
        );
        // Answering a finished question's step is refused.
        assert_eq!(
            store
                .answer(&ann, refused, &json!({"submitted": "x"}), "c", &any_kind)
                .unwrap(),
            Answered::Gone(Some(Closed::Finished))
        );
        // Asked again once finished: a new question.
        let new = store
            .post_step("ci", &post("k1", "Name?", None, None), "a")
            .unwrap();
        assert_ne!(new.question, first.question);
    });
}

#[test]
fn a_question_addressed_to_a_group_is_for_its_members_only() {
    on_every_store(|store| {
        let at = store
            .post_step("ci", &post("k", "Deploy?", None, Some("ops")), "a")
            .unwrap();
        let (ann, bob) = (person("ann", &["ops"]), person("bob", &["dev"]));
        assert_eq!(store.open_questions(&ann).unwrap().len(), 1);
        assert!(store.open_questions(&bob).unwrap().is_empty());
        assert_eq!(store.progress(&bob, at.question).unwrap(), None);
        assert_eq!(
            store
                .answer(&bob, at, &json!({"answered": true}), "b", &any_kind)
                .unwrap(),
            Answered::Unknown
        );
        let agent = Holder {
            kind: Kind::Agent,
            name: "ci".into(),
            groups: vec![],
        };
        assert_eq!(
            store
                .answer(&agent, at, &json!({"answered": true}), "b", &any_kind)
                .unwrap(),
            Answered::Unknown,
            "an agent's token never answers"
        );
    });
}

#[test]
fn tokens_are_found_by_hash_until_revoked_and_the_audit_says_it_all() {
    on_every_store(|store| {
        store.add_token("h1", &person("ann", &["ops"])).unwrap();
        assert_eq!(store.holder("h1").unwrap(), Some(person("ann", &["ops"])));
        assert_eq!(store.holder("h2").unwrap(), None);
        assert_eq!(store.revoke("ann").unwrap(), 1);
        assert_eq!(store.holder("h1").unwrap(), None);
        assert_eq!(store.revoke("ann").unwrap(), 0);
        assert!(store.tokens().unwrap()[0].revoked_at.is_some());
        let events: Vec<String> = store
            .audit(0)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect();
        assert_eq!(events, ["token-added", "token-revoked"]);
        assert!(store.audit(now_ms() + 1000).unwrap().is_empty());
    });
}

#[test]
fn many_answers_at_once_to_one_step_keep_exactly_one() {
    on_every_store(|store| {
        let at = store
            .post_step("ci", &post("k", "Name?", None, None), "a")
            .unwrap();
        let accepted = std::thread::scope(|scope| {
            let answering: Vec<_> = (0..8)
                .map(|n| {
                    scope.spawn(move || {
                        let who = person(&format!("p{n}"), &[]);
                        store.answer(
                            &who,
                            at,
                            &json!({"submitted": n.to_string()}),
                            "x",
                            &any_kind,
                        )
                    })
                })
                .collect();
            answering
                .into_iter()
                .map(|t| t.join().unwrap())
                .filter(|answered| matches!(answered, Ok(Answered::Accepted)))
                .count()
        });
        assert_eq!(accepted, 1);
        let kept = store.audit(0).unwrap();
        assert_eq!(kept.iter().filter(|e| e.event == "answered").count(), 1);
    });
}

fn with_deadline(mut post: StepPost, after_ms: i64, escalate_to: Option<&str>) -> StepPost {
    post.deadline = Some(Deadline {
        after_ms,
        escalate_to: escalate_to.map(str::to_owned),
    });
    post
}

fn events(store: &dyn Store, event: &str) -> Vec<AuditEntry> {
    let all = store.audit(0).unwrap().into_iter();
    all.filter(|e| e.event == event).collect()
}

#[test]
fn a_question_nobody_answers_by_its_deadline_expires_and_its_asker_is_told() {
    on_every_store(|store| {
        let asked = with_deadline(post("k", "Deploy?", None, None), 60_000, None);
        let at = store.post_step("ci", &asked, "a").unwrap();
        let ann = person("ann", &[]);
        store.sweep(now_ms(), None).unwrap();
        assert_eq!(
            store.reply("ci", at).unwrap(),
            ReplyState::Waiting,
            "not yet"
        );
        let expired_at = now_ms() + 61_000;
        store.sweep(expired_at, None).unwrap();
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Expired);
        assert!(store.open_questions(&ann).unwrap().is_empty());
        assert_eq!(
            store.progress(&ann, at.question).unwrap().unwrap().closed,
            Some(Closed::Expired)
        );
        let late = store.answer(&ann, at, &json!({"answered": true}), "b", &any_kind);
        assert_eq!(
            late.unwrap(),
            Answered::Gone(Some(Closed::Expired)),
            "too late to answer"
        );
        assert_eq!(events(store, "expired").len(), 1);
        // Asked again (an asker that restarts): a new question, that says it asks again.
        let again = store.post_step("ci", &asked, "a").unwrap();
        assert_ne!(again.question, at.question);
        assert_eq!(store.reply("ci", again).unwrap(), ReplyState::Waiting);
        let open = store.open_questions(&ann).unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].again_of, Some(at.question));
        assert_eq!(
            open[0].earlier_ended_at,
            Some(expired_at),
            "when the run it asks again for ended"
        );
        // A question without a deadline waits as long as its asker.
        let patient = store
            .post_step("ci", &post("k2", "Name?", None, None), "a")
            .unwrap();
        store.sweep(now_ms() + 86_400_000, None).unwrap();
        assert_eq!(store.reply("ci", patient).unwrap(), ReplyState::Waiting);
    });
}

#[test]
fn at_its_deadline_a_question_goes_once_to_whom_it_escalates_to_then_expires() {
    on_every_store(|store| {
        let asked = with_deadline(post("k", "Deploy?", None, Some("ann")), 60_000, Some("ops"));
        let at = store.post_step("ci", &asked, "a").unwrap();
        let (ann, bob) = (person("ann", &[]), person("bob", &["ops"]));
        assert!(store.open_questions(&bob).unwrap().is_empty());
        let due = now_ms() + 61_000;
        // Two servers sweeping at once escalate it once.
        std::thread::scope(|scope| {
            let sweeping: Vec<_> = (0..2)
                .map(|_| scope.spawn(|| store.sweep(due, None)))
                .collect();
            sweeping
                .into_iter()
                .for_each(|t| t.join().unwrap().unwrap());
        });
        assert!(store.open_questions(&ann).unwrap().is_empty());
        assert_eq!(
            store.open_questions(&bob).unwrap()[0].to.as_deref(),
            Some("ops")
        );
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Waiting);
        let escalated = events(store, "escalated");
        assert_eq!(escalated.len(), 1);
        assert_eq!(escalated[0].detail, json!({"from": "ann", "to": "ops"}));
        // For as long again, then it expires: no second escalation.
        store.sweep(due + 30_000, None).unwrap();
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Waiting);
        store.sweep(due + 61_000, None).unwrap();
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Expired);
        assert_eq!(events(store, "escalated").len(), 1);
    });
}

#[test]
fn a_notice_goes_to_each_hook_of_the_addressee_once_and_a_failed_one_is_tried_again() {
    on_every_store(|store| {
        let hook = |addressed: Option<&str>, url: &str| Hook {
            addressed: addressed.map(str::to_owned),
            url: url.into(),
            created_at: now_ms(),
        };
        store
            .add_hook(&hook(Some("ops"), "http://chat/ops"))
            .unwrap();
        store.add_hook(&hook(None, "http://chat/anyone")).unwrap();
        store
            .add_hook(&hook(Some("dev"), "http://chat/dev"))
            .unwrap();
        assert_eq!(store.hooks().unwrap().len(), 3);
        let asked = with_deadline(post("k", "Deploy?", None, Some("ops")), 60_000, Some("dev"));
        let at = store.post_step("ci", &asked, "a").unwrap();
        // Put up again (a retry): no second notice.
        store.post_step("ci", &asked, "a").unwrap();
        let claimed = store.claim_notices(now_ms(), 10).unwrap();
        assert_eq!(claimed.len(), 1, "{claimed:?}");
        let notice = &claimed[0];
        assert_eq!(
            (notice.url.as_str(), notice.event.as_str()),
            ("http://chat/ops", "asked")
        );
        assert_eq!(
            (notice.question, notice.to.as_deref()),
            (at.question, Some("ops"))
        );
        assert_eq!(notice.view["frame"]["prompt"], "Deploy?");
        // Leased: another server claiming now gets nothing.
        assert!(store.claim_notices(now_ms(), 10).unwrap().is_empty());
        store
            .notice_sent(notice, Err(NotifyError(ureq::ErrorKind::ConnectionFailed)))
            .unwrap();
        let retried = store.claim_notices(now_ms() + 6_000, 10).unwrap();
        assert_eq!(retried.len(), 1);
        assert_eq!(retried[0].tries, 1);
        store.notice_sent(&retried[0], Ok(200)).unwrap();
        assert!(
            store
                .claim_notices(now_ms() + 700_000, 10)
                .unwrap()
                .is_empty()
        );
        let notified = events(store, "notified");
        assert_eq!(notified.len(), 1);
        // The audit keeps the hook's host only: the rest of a chat's URL is its secret.
        assert_eq!(notified[0].detail["url"], "http://chat/…");
        // Escalated: the notice goes to the hooks of whom it escalated to.
        let due = now_ms() + 61_000;
        store.sweep(due, None).unwrap();
        let escalated = store.claim_notices(due, 10).unwrap();
        assert_eq!(escalated.len(), 1);
        assert_eq!(
            (escalated[0].url.as_str(), escalated[0].event.as_str()),
            ("http://chat/dev", "escalated")
        );
        // A question that ended before its notice went out needs none.
        store.notice_sent(&escalated[0], Ok(500)).unwrap();
        store.finish("ci", at.question, "finished", "a").unwrap();
        assert!(
            store
                .claim_notices(now_ms() + 700_000, 10)
                .unwrap()
                .is_empty()
        );
        // A failing hook is given up after its last try, and the audit says so.
        let other = store.post_step("ci", &post_to_anyone("k2"), "a").unwrap();
        let mut now = now_ms();
        for _ in 0..NOTICE_TRIES {
            let claimed = store.claim_notices(now, 10).unwrap();
            assert_eq!(claimed.len(), 1);
            assert_eq!(claimed[0].question, other.question);
            store.notice_sent(&claimed[0], Ok(404)).unwrap();
            now += 700_000;
        }
        assert!(store.claim_notices(now, 10).unwrap().is_empty());
        assert_eq!(events(store, "notice-failed").len(), 1);
        assert_eq!(store.remove_hook("http://chat/ops").unwrap(), 1);
        assert_eq!(store.remove_hook("http://chat/ops").unwrap(), 0);
    });
}

#[test]
#[cfg(feature = "postgres")]
fn a_postgres_database_of_layout_1_is_brought_to_this_layout_and_then_left_alone() {
    let Some(database) = scratch::Database::create() else {
        return;
    };
    let mut old = ::postgres::Client::connect(&database.url, ::postgres::NoTls).unwrap();
    old.batch_execute(include_str!("postgres.sql")).unwrap();
    old.batch_execute(
        "INSERT INTO interview_layout VALUES (1);
         INSERT INTO questions (key, agent, asker, asked_at) VALUES ('k', 'ci', '{}', 1);",
    )
    .unwrap();
    let store = postgres::Postgres::open(&database.url, Access::Write).unwrap();
    // The question layout 1 left open is closed: no later run is handed what was said to it.
    let at = store
        .post_step("ci", &post("k", "Name?", None, None), "a")
        .unwrap();
    let old_question: i64 = old
        .query_one("SELECT id FROM questions WHERE run = ''", &[])
        .unwrap()
        .get(0);
    assert_ne!(at.question, old_question);
    let open = store.open_questions(&person("ann", &[])).unwrap();
    assert_eq!(open[0].again_of, Some(old_question));
    assert!(!open[0].resumed);
    store.sweep(now_ms(), None).unwrap();
    // Opened again while another connection holds the questions' table: a server at this
    // layout writes no DDL, so it does not wait on it.
    let mut busy = old.transaction().unwrap();
    busy.batch_execute("LOCK TABLE questions IN ROW EXCLUSIVE MODE")
        .unwrap();
    let (opened, waited) = std::sync::mpsc::channel();
    let url = database.url.clone();
    std::thread::spawn(move || opened.send(postgres::Postgres::open(&url, Access::Write).is_ok()));
    let opened = waited.recv_timeout(std::time::Duration::from_secs(10));
    busy.rollback().unwrap();
    assert_eq!(opened, Ok(true), "opening waited on the table, or failed");
    let layouts: Vec<i32> = old
        .query("SELECT layout FROM interview_layout", &[])
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(layouts, [3]);
}

#[test]
fn a_deadline_takes_nothing_from_a_person_who_answered_in_time_nor_gives_back_a_stale_answer() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let asked = with_deadline(post("k", "Deploy?", None, None), 60_000, None);
        let first = store.post_step("ci", &asked, "a").unwrap();
        store
            .answer(&ann, first, &json!({"answered": true}), "b", &any_kind)
            .unwrap();
        // The deadline passes while the asker judges the answer: the person has done their part.
        store.sweep(now_ms() + 61_000, None).unwrap();
        assert_eq!(
            store
                .progress(&ann, first.question)
                .unwrap()
                .unwrap()
                .closed,
            None
        );
        assert!(events(store, "expired").is_empty());
        // Its next step comes after the deadline: nobody answers it, and it expires.
        let next = with_deadline(post("k", "Really?", Some(first.seq), None), 60_000, None);
        let second = store.post_step("ci", &next, "a").unwrap();
        store.sweep(now_ms() + 61_000, None).unwrap();
        assert_eq!(store.reply("ci", second).unwrap(), ReplyState::Expired);
        // A new run long after its expiry (a daily job asking the same): a new question, asked
        // afresh, not the old one answered with what was said to it.
        let today = with_deadline(post("k2", "Deploy?", None, None), 1_000, None);
        let at = store.post_step("ci", &today, "a").unwrap();
        store
            .answer(&ann, at, &json!({"answered": true}), "b", &any_kind)
            .unwrap();
        let after = with_deadline(post("k2", "Sure?", Some(at.seq), None), 1_000, None);
        let sure = store.post_step("ci", &after, "a").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1_100));
        store.sweep(now_ms(), None).unwrap();
        assert_eq!(store.reply("ci", sure).unwrap(), ReplyState::Expired);
        std::thread::sleep(std::time::Duration::from_millis(1_100));
        let again = store.post_step("ci", &today, "a").unwrap();
        assert_ne!(again.question, at.question, "a new question");
        assert_eq!(store.reply("ci", again).unwrap(), ReplyState::Waiting);
        let open = store.open_questions(&ann).unwrap();
        assert!(!open.iter().any(|q| q.resumed), "nothing played back");
    });
}

#[test]
fn a_notice_is_not_sent_once_its_person_answered_or_its_hook_was_removed() {
    on_every_store(|store| {
        let hook = |url: &str| Hook {
            addressed: None,
            url: url.into(),
            created_at: now_ms(),
        };
        store.add_hook(&hook("http://chat/a")).unwrap();
        let at = store
            .post_step("ci", &post("k", "Name?", None, None), "a")
            .unwrap();
        store
            .answer(
                &person("ann", &[]),
                at,
                &json!({"submitted": "Ada"}),
                "b",
                &any_kind,
            )
            .unwrap();
        assert!(
            store.claim_notices(now_ms(), 10).unwrap().is_empty(),
            "answered"
        );
        store
            .post_step("ci", &post("k2", "Name?", None, None), "a")
            .unwrap();
        assert_eq!(store.remove_hook("http://chat/a").unwrap(), 1);
        assert!(
            store.claim_notices(now_ms(), 10).unwrap().is_empty(),
            "removed"
        );
        // A try whose lease ran out and was taken by another server changes nothing.
        store.add_hook(&hook("http://chat/b")).unwrap();
        store
            .post_step("ci", &post("k3", "Name?", None, None), "a")
            .unwrap();
        let first = store.claim_notices(now_ms(), 10).unwrap();
        let second = store
            .claim_notices(now_ms() + NOTICE_LEASE + 1, 10)
            .unwrap();
        assert_eq!((first.len(), second.len()), (1, 1));
        store.notice_sent(&first[0], Ok(200)).unwrap();
        store.notice_sent(&second[0], Ok(200)).unwrap();
        assert_eq!(events(store, "notified").len(), 1);
    });
}

#[test]
fn an_answer_goes_only_to_the_run_that_asked_and_another_run_has_its_own_question() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let first = store
            .post_step("ci", &post("k", "Deploy?", None, None), "a")
            .unwrap();
        // Another process asking the same, at the same time: a question of its own.
        let other = StepPost {
            run: "r2".into(),
            ..post("k", "Deploy?", None, None)
        };
        let second = store.post_step("ci", &other, "a").unwrap();
        assert_ne!(first.question, second.question);
        store
            .answer(&ann, first, &json!({"answered": true}), "b", &any_kind)
            .unwrap();
        assert!(matches!(
            store.reply("ci", first).unwrap(),
            ReplyState::Replied { .. }
        ));
        assert_eq!(store.reply("ci", second).unwrap(), ReplyState::Waiting);
        let open = store.open_questions(&ann).unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].question, second.question);
    });
}

#[test]
fn a_withdrawn_run_takes_no_answer_and_its_retry_is_shown_all_but_the_last_reply() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let env = store
            .post_step("ci", &post("k", "Where?", None, None), "a")
            .unwrap();
        store
            .answer(&ann, env, &json!({"picked": 1}), "b", &any_kind)
            .unwrap();
        let checks = store
            .post_step("ci", &post("k", "Checks?", Some(env.seq), None), "a")
            .unwrap();
        // The asker stops waiting (Ctrl-C, a cancelled call): nobody may answer for nothing.
        store.finish("ci", env.question, "withdrawn", "a").unwrap();
        assert!(store.open_questions(&ann).unwrap().is_empty());
        assert_eq!(
            store
                .answer(&ann, checks, &json!({"picked": [0]}), "b", &any_kind)
                .unwrap(),
            Answered::Gone(Some(Closed::Withdrawn))
        );
        // A retry by another process within the window: its own question, with the first
        // answer played back, and the rest asked.
        let retry = |prompt: &str, after| StepPost {
            run: "r2".into(),
            ..post("k", prompt, after, None)
        };
        let again = store.post_step("ci", &retry("Where?", None), "a").unwrap();
        assert_ne!(again.question, env.question);
        assert!(matches!(
            store.reply("ci", again).unwrap(),
            ReplyState::Replied { reply, .. } if reply == json!({"picked": 1})
        ));
        let next = store
            .post_step("ci", &retry("Checks?", Some(again.seq)), "a")
            .unwrap();
        assert_eq!(store.reply("ci", next).unwrap(), ReplyState::Waiting);
        let open = store.open_questions(&ann).unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(
            (open[0].again_of, open[0].resumed),
            (Some(env.question), true)
        );
        assert_eq!(events(store, "resumed").len(), 1);
        // Once only: a third run asking meanwhile is asked afresh.
        let third = StepPost {
            run: "r3".into(),
            ..post("k", "Where?", None, None)
        };
        let fresh = store.post_step("ci", &third, "a").unwrap();
        assert_eq!(store.reply("ci", fresh).unwrap(), ReplyState::Waiting);
        assert_eq!(events(store, "resumed").len(), 1);
    });
}

/// Run `name` of request `k`, its first step answered by ann and its second put up: that step.
fn first_answered(store: &dyn Store, name: &str) -> Posted {
    let env = store
        .post_step("ci", &run(name, "Where?", None), "a")
        .unwrap();
    let ann = person("ann", &[]);
    let reply = json!({"picked": 1});
    store.answer(&ann, env, &reply, "b", &any_kind).unwrap();
    let next = run(name, "Checks?", Some(env.seq));
    store.post_step("ci", &next, "a").unwrap()
}

/// The step of run `run` of request `k` that asks `prompt`.
fn run(run: &str, prompt: &str, after: Option<i64>) -> StepPost {
    StepPost {
        run: run.into(),
        ..post("k", prompt, after, None)
    }
}

#[test]
fn a_run_asked_while_another_waits_goes_on_from_its_answers_once_that_one_is_withdrawn() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let checks = first_answered(store, "r1");
        let env = Posted { seq: 1, ..checks };
        // Another run of the request asks while the first waits, and one of another request.
        let again = store
            .post_step("ci", &run("r2", "Where?", None), "a")
            .unwrap();
        let other = store
            .post_step("ci", &post("other", "Where?", None, None), "a")
            .unwrap();
        assert_eq!(store.reply("ci", again).unwrap(), ReplyState::Waiting);
        // The first run withdrawing hands its answers on to that run, and to it only.
        let handed = store
            .finish("ci", checks.question, "withdrawn", "a")
            .unwrap();
        assert_eq!(handed, Some(again));
        assert!(matches!(
            store.reply("ci", again).unwrap(),
            ReplyState::Replied { reply, by } if reply == json!({"picked": 1}) && by == "ann"
        ));
        assert_eq!(store.reply("ci", other).unwrap(), ReplyState::Waiting);
        assert_eq!(store.settled(&[again, other]).unwrap(), [again]);
        // It goes on from where the person was: the last step is asked of them again.
        let next = store
            .post_step("ci", &run("r2", "Checks?", Some(again.seq)), "a")
            .unwrap();
        assert_eq!(store.reply("ci", next).unwrap(), ReplyState::Waiting);
        let open = store.open_questions(&ann).unwrap();
        let shown = open.iter().find(|q| q.question == again.question).unwrap();
        assert_eq!((shown.again_of, shown.resumed), (Some(env.question), true));
        assert_eq!(events(store, "resumed").len(), 1);
        // Once only: a run asked afterwards is asked afresh.
        let third = store
            .post_step("ci", &run("r3", "Where?", None), "a")
            .unwrap();
        assert_eq!(store.reply("ci", third).unwrap(), ReplyState::Waiting);
    });
}

#[test]
fn a_later_run_is_handed_nothing_when_the_first_finished_or_the_person_began_it() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        // Finished: the plugin is done with its answers, which were its own.
        let done = first_answered(store, "r1");
        let waiting = store
            .post_step("ci", &run("r2", "Where?", None), "a")
            .unwrap();
        assert_eq!(
            store.finish("ci", done.question, "finished", "a").unwrap(),
            None
        );
        assert_eq!(store.reply("ci", waiting).unwrap(), ReplyState::Waiting);
        store
            .finish("ci", waiting.question, "finished", "a")
            .unwrap();
        // Begun: the person answers the later run themselves, and it is not overwritten.
        let withdrawn = first_answered(store, "r3");
        // (A run after one that ended with its answer is a new request, not one asked again.)
        let open = store.open_questions(&ann).unwrap();
        let shown = open.iter().find(|q| q.question == withdrawn.question);
        assert_eq!(shown.unwrap().again_of, None);
        let begun = store
            .post_step("ci", &run("r4", "Where?", None), "a")
            .unwrap();
        store
            .answer(&ann, begun, &json!({"picked": 0}), "b", &any_kind)
            .unwrap();
        let handed = store.finish("ci", withdrawn.question, "withdrawn", "a");
        assert_eq!(handed.unwrap(), None);
        assert!(matches!(
            store.reply("ci", begun).unwrap(),
            ReplyState::Replied { reply, .. } if reply == json!({"picked": 0})
        ));
    });
}

#[test]
fn the_steps_settled_are_found_among_many_in_one_read() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let [first, second, third] = ["k1", "k2", "k3"].map(|key| {
            store
                .post_step("ci", &post(key, "Deploy?", None, None), "a")
                .unwrap()
        });
        let waiting = [first, second, third];
        assert_eq!(store.settled(&waiting).unwrap(), []);
        store
            .answer(&ann, second, &json!({"answered": true}), "b", &any_kind)
            .unwrap();
        assert_eq!(store.settled(&waiting).unwrap(), [second]);
        store
            .finish("ci", third.question, "withdrawn", "a")
            .unwrap();
        let mut settled = store.settled(&waiting).unwrap();
        settled.sort_by_key(|at| at.question);
        assert_eq!(settled, [second, third]);
        // A step that is not there is not settled: its poll finds out by itself.
        let missing = Posted {
            question: third.question + 100,
            seq: 1,
        };
        assert_eq!(store.settled(&[missing]).unwrap(), []);
        assert_eq!(store.settled(&[]).unwrap(), []);
    });
}

#[test]
fn a_silent_asker_is_withdrawn_and_the_answer_nobody_took_is_asked_again_of_its_retry() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let at = store
            .post_step("ci", &post("k", "Deploy?", None, None), "a")
            .unwrap();
        // Heard from now: not silent.
        store.seen(&[at.question], now_ms()).unwrap();
        store.sweep(now_ms(), Some(now_ms() - SILENCE_MS)).unwrap();
        assert!(events(store, "withdrawn").is_empty());
        store
            .answer(&ann, at, &json!({"answered": true}), "b", &any_kind)
            .unwrap();
        // Then nothing more from it: withdrawn, once, whichever server sweeps.
        let later = now_ms() + SILENCE_MS + 1;
        store.sweep(later, Some(later - SILENCE_MS)).unwrap();
        store.sweep(later, Some(later - SILENCE_MS)).unwrap();
        assert_eq!(events(store, "withdrawn").len(), 1);
        // Told apart from a withdrawal: the person learns that the answer reached nobody.
        assert_eq!(
            store.progress(&ann, at.question).unwrap().unwrap().closed,
            Some(Closed::Gone)
        );
        // The retry is asked, not handed the answer its asker never took.
        let retry = StepPost {
            run: "r2".into(),
            ..post("k", "Deploy?", None, None)
        };
        let again = store.post_step("ci", &retry, "a").unwrap();
        assert_eq!(store.reply("ci", again).unwrap(), ReplyState::Waiting);
        // A poll after it was withdrawn tells the silent asker so.
        let waiting = store
            .post_step("ci", &post("k2", "Name?", None, None), "a")
            .unwrap();
        let much_later = later + 2 * SILENCE_MS;
        store
            .sweep(much_later, Some(much_later - SILENCE_MS))
            .unwrap();
        assert_eq!(store.reply("ci", waiting).unwrap(), ReplyState::Withdrawn);
    });
}

fn post_to_anyone(key: &str) -> StepPost {
    post(key, "Anyone?", None, None)
}

/// A PostgreSQL database of a test's own (shared with the end-to-end tests).
#[cfg(feature = "postgres")]
#[path = "../../../tests/common/postgres.rs"]
mod scratch;

#[test]
fn a_secret_reply_is_erased_once_its_asker_has_it_and_the_audit_never_holds_it() {
    on_every_store(|store| {
        let ann = person("ann", &[]);
        let secret = |key: &str, after| StepPost {
            secret: true,
            ..post(key, "Token?", after, None)
        };
        let at = store.post_step("ci", &secret("k", None), "a").unwrap();
        let given = json!({"submitted": "hunter2"});
        store.answer(&ann, at, &given, "b", &any_kind).unwrap();
        assert!(matches!(
            store.reply("ci", at).unwrap(),
            ReplyState::Replied { reply, .. } if reply == given
        ));
        // The asker puts up its next step: it has the reply, which goes.
        store
            .post_step("ci", &post("k", "Next?", Some(at.seq), None), "a")
            .unwrap();
        assert!(!matches!(
            store.reply("ci", at).unwrap(),
            ReplyState::Replied { .. }
        ));
        // A secret nobody took (its asker withdrew) goes at the next purge.
        let other = store.post_step("ci", &secret("k2", None), "a").unwrap();
        store.answer(&ann, other, &given, "b", &any_kind).unwrap();
        store
            .finish("ci", other.question, "withdrawn", "a")
            .unwrap();
        store.purge(0).unwrap();
        assert!(!matches!(
            store.reply("ci", other).unwrap(),
            ReplyState::Replied { .. }
        ));
        let audit = serde_json::to_string(
            &events(store, "answered")
                .iter()
                .map(|e| e.detail.clone())
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(!audit.contains("hunter2"), "{audit}");
        assert!(audit.contains("given"), "{audit}");
    });
}

#[test]
fn questions_closed_before_the_retention_and_old_audit_lines_are_forgotten() {
    on_every_store(|store| {
        let at = store
            .post_step("ci", &post("k", "Name?", None, None), "a")
            .unwrap();
        store.finish("ci", at.question, "finished", "a").unwrap();
        let open = store
            .post_step("ci", &post("k2", "Open?", None, None), "a")
            .unwrap();
        store.purge(now_ms() + 1).unwrap();
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Unknown);
        assert_eq!(
            store.reply("ci", open).unwrap(),
            ReplyState::Waiting,
            "open: kept"
        );
        assert!(store.audit(0).unwrap().is_empty());
    });
}

#[test]
#[cfg(feature = "postgres")]
fn a_postgres_database_of_another_program_or_none_yet_is_left_as_it_is() {
    let Some(database) = scratch::Database::create() else {
        return;
    };
    // Empty: only made a team inbox's on purpose.
    for access in [Access::Write, Access::Read] {
        let refused = postgres::Postgres::open(&database.url, access)
            .err()
            .unwrap();
        assert!(matches!(refused, StoreError::Missing(_)), "{refused:?}");
        assert!(
            refused.to_string().contains("no team inbox database"),
            "{refused}"
        );
    }
    let mut other = ::postgres::Client::connect(&database.url, ::postgres::NoTls).unwrap();
    other
        .batch_execute("CREATE TABLE accounts (id BIGINT)")
        .unwrap();
    for access in [Access::Create, Access::Write, Access::Read] {
        let refused = postgres::Postgres::open(&database.url, access)
            .err()
            .unwrap();
        assert!(matches!(refused, StoreError::Foreign(_)), "{refused:?}");
        assert!(
            refused.to_string().contains("another program's tables"),
            "{refused}"
        );
    }
    let tables: i64 = other
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "nothing was created");
}

#[test]
fn a_reply_unfit_for_its_steps_widget_is_refused_and_the_step_still_waits() {
    on_every_store(|store| {
        let at = store
            .post_step("ci", &post("k1", "Name?", None, Some("ann")), "a")
            .unwrap();
        let numbers_only = |kind: &str| kind == "number";
        let reply = json!({"submitted": "Ada"});
        // Someone the step is not for learns nothing of it, its kind included.
        let bob = person("bob", &[]);
        let refused = store.answer(&bob, at, &reply, "b", &numbers_only).unwrap();
        assert_eq!(refused, Answered::Unknown);
        let ann = person("ann", &[]);
        let refused = store.answer(&ann, at, &reply, "b", &numbers_only).unwrap();
        assert_eq!(refused, Answered::Unfit("text".into()));
        assert_eq!(store.reply("ci", at).unwrap(), ReplyState::Waiting);
        let taken = store.answer(&ann, at, &reply, "b", &any_kind).unwrap();
        assert_eq!(taken, Answered::Accepted);
    });
}

#[test]
#[cfg(feature = "postgres")]
fn an_answer_kept_by_one_server_is_told_at_once_to_another_listening_on_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = sqlite::Sqlite::open(&dir.path().join("team.sqlite3"), Access::Create).unwrap();
    assert!(
        !sqlite.tell_answered(Box::new(|_| {})),
        "SQLite has no such news to tell"
    );
    let Some(database) = scratch::Database::create() else {
        return;
    };
    let answering = postgres::Postgres::open(&database.url, Access::Create).unwrap();
    let listening = postgres::Postgres::open(&database.url, Access::Write).unwrap();
    let (told, news) = std::sync::mpsc::channel();
    assert!(listening.tell_answered(Box::new(move |at| {
        let _ = told.send(at);
    })));
    // The listener connects on its own thread: steps are answered until it hears of one.
    let ann = person("ann", &[]);
    let mut answered = Vec::new();
    for n in 0..20 {
        let at = answering
            .post_step("ci", &post(&format!("k{n}"), "Name?", None, None), "a")
            .unwrap();
        let taken = answering.answer(&ann, at, &json!({"submitted": "Ada"}), "b", &any_kind);
        assert_eq!(taken.unwrap(), Answered::Accepted);
        answered.push(at);
        if let Ok(heard) = news.recv_timeout(std::time::Duration::from_millis(500)) {
            assert!(answered.contains(&heard), "{heard:?} was never answered");
            return;
        }
    }
    panic!("no answer was told in 10 s");
}

#[test]
fn a_questions_waiting_step_is_read_alone_for_whoever_may_answer_it() {
    on_every_store(|store| {
        let (ann, bob) = (person("ann", &["ops"]), person("bob", &[]));
        let other = store
            .post_step("ci", &post("k0", "Other?", None, None), "a")
            .unwrap();
        let at = store
            .post_step("ci", &post("k1", "Name?", None, Some("ops")), "a")
            .unwrap();
        let waiting = store.waiting_step(&ann, at.question).unwrap().unwrap();
        assert_eq!((waiting.question, waiting.seq), (at.question, at.seq));
        assert_eq!(
            waiting.view.get(),
            store.open_questions(&ann).unwrap()[1].view.get()
        );
        assert_eq!(waiting.to.as_deref(), Some("ops"));
        // Not for someone it is not for, and not once answered.
        assert!(store.waiting_step(&bob, at.question).unwrap().is_none());
        let reply = json!({"submitted": "Ada"});
        store.answer(&ann, at, &reply, "b", &any_kind).unwrap();
        assert!(store.waiting_step(&ann, at.question).unwrap().is_none());
        // The next step is, until the question is finished.
        let next = store
            .post_step(
                "ci",
                &post("k1", "Name? (again)", Some(at.seq), Some("ops")),
                "a",
            )
            .unwrap();
        assert_eq!(
            store.waiting_step(&ann, at.question).unwrap().unwrap().seq,
            next.seq
        );
        store.finish("ci", at.question, "finished", "a").unwrap();
        assert!(store.waiting_step(&ann, at.question).unwrap().is_none());
        assert!(store.waiting_step(&ann, 1 << 40).unwrap().is_none());
        assert_eq!(
            store
                .waiting_step(&bob, other.question)
                .unwrap()
                .unwrap()
                .seq,
            other.seq
        );
    });
}
