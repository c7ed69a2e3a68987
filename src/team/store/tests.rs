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
        from: json!({"command": "ask"}),
        folder: Some("/src/app".into()),
        to: to.map(str::to_owned),
        kind: "text".into(),
        view: json!({"frame": {"prompt": prompt}, "request": {}}),
        after,
    }
}

/// Runs `case` on a fresh SQLite store, and on a fresh PostgreSQL database when one is given.
fn on_every_store(case: fn(&dyn Store)) {
    let dir = tempfile::tempdir().unwrap();
    case(&sqlite::Sqlite::open(&dir.path().join("team.sqlite3")).unwrap());
    if let Some(database) = scratch::Database::create() {
        case(&postgres::Postgres::open(&database.url).unwrap());
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
            store.answer(&ann, at, &reply, "10.0.0.2").unwrap(),
            Answered::Accepted
        );
        let second = store.answer(&bob, at, &json!({"submitted": "Bo"}), "10.0.0.3");
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
            .answer(&ann, first, &json!({"submitted": ""}), "b")
            .unwrap();
        assert_eq!(
            store.progress(&ann, first.question).unwrap(),
            Some(Progress {
                seq: 1,
                answered: true,
                closed: false
            })
        );
        // The plugin refused it: the same question with its error is the next step.
        let refused = store
            .post_step("ci", &post("k1", "Name? (required)", Some(1), None), "a")
            .unwrap();
        assert_eq!((refused.question, refused.seq), (first.question, 2));
        // An answer to a step the asker has left is refused, naming who answered it.
        let late = store
            .answer(&person("bob", &[]), first, &json!({"submitted": "x"}), "c")
            .unwrap();
        assert!(matches!(late, Answered::Taken { by, .. } if by == "ann"));
        // An asker that restarts finds its first step, answered, and then the open one.
        let resumed = store
            .post_step("ci", &post("k1", "Name?", None, None), "a")
            .unwrap();
        assert_eq!(resumed, first);
        store.finish("ci", first.question, "answered", "a").unwrap();
        assert!(store.open_questions(&ann).unwrap().is_empty());
        assert!(
            store
                .progress(&ann, first.question)
                .unwrap()
                .unwrap()
                .closed
        );
        // Answering a finished question's step is refused.
        assert_eq!(
            store
                .answer(&ann, refused, &json!({"submitted": "x"}), "c")
                .unwrap(),
            Answered::Gone
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
                .answer(&bob, at, &json!({"answered": true}), "b")
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
                .answer(&agent, at, &json!({"answered": true}), "b")
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
                        store.answer(&who, at, &json!({"submitted": n.to_string()}), "x")
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

/// A PostgreSQL database of a test's own (shared with the end-to-end tests).
#[path = "../../../tests/common/postgres.rs"]
mod scratch;
