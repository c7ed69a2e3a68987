use std::collections::VecDeque;

use super::read::*;
use super::*;

fn options(labels: &[&str]) -> Vec<Choice> {
    labels
        .iter()
        .map(|label| Choice {
            label: label.to_string(),
            value: label.to_lowercase(),
            description: None,
            preview: None,
            recommended: false,
        })
        .collect()
}

fn select(labels: &[&str], other: bool, discuss: bool) -> SelectRequest {
    SelectRequest {
        options: options(labels),
        selected: None,
        other_label: other.then(|| "Something else".into()),
        other_text: None,
        discuss_label: discuss.then(|| "Discuss".into()),
        notes: false,
        note: None,
    }
}

fn multi(labels: &[&str], other: bool) -> MultiSelectRequest {
    MultiSelectRequest {
        options: options(labels),
        selected: vec![],
        other_label: other.then(|| "Something else".into()),
        other_text: None,
        min_picks: None,
        max_picks: None,
        notes: false,
        note: None,
    }
}

/// A text request with nothing but `multiline` and `secret` set.
fn text_request(multiline: bool, secret: bool) -> TextRequest {
    TextRequest {
        multiline,
        placeholder: None,
        initial: None,
        secret,
        min_length: None,
        max_length: None,
    }
}

fn frame(prompt: &str, required: bool) -> Frame {
    Frame {
        position: 1,
        total: 1,
        header: None,
        place: None,
        prompt: prompt.into(),
        required,
        mark_optional: !required,
        hint: None,
        error: None,
        context: None,
        declinable: false,
    }
}

fn picked(index: u32) -> Reading<SelectReply> {
    Reading::Reply(SelectReply::Picked(Pick { index, note: None }))
}

fn multi_picked(picked: Vec<u32>, other: Option<&str>) -> Reading<MultiSelectReply> {
    Reading::Reply(MultiSelectReply::Picked(MultiPick {
        picked,
        other: other.map(Into::into),
        note: None,
    }))
}

/// Lines a host would read, then the end (or whatever `last` says); what was written, kept.
struct Typed {
    lines: VecDeque<LineRead>,
    last: LineRead,
    written: Vec<Span>,
    hidden: Vec<bool>,
    answering: Vec<Option<u32>>,
}

impl Typed {
    fn new(lines: &[&str]) -> Self {
        Typed {
            lines: lines
                .iter()
                .map(|l| LineRead::Line(l.to_string()))
                .collect(),
            last: LineRead::Ended,
            written: Vec::new(),
            hidden: Vec::new(),
            answering: Vec::new(),
        }
    }
    fn screen(&self) -> String {
        self.written.iter().map(|s| s.text.as_str()).collect()
    }
}

impl LineIo for &mut Typed {
    fn write(&mut self, spans: &[Span]) {
        self.written.extend_from_slice(spans);
    }
    fn read_line(&mut self, hidden: bool, answering: Option<&Frame>) -> LineRead {
        self.hidden.push(hidden);
        self.answering.push(answering.map(|f| f.position));
        self.lines.pop_front().unwrap_or_else(|| self.last.clone())
    }
}

#[test]
fn a_select_reads_numbers_labels_commands_and_typed_answers() {
    let r = select(&["Red", "Green", "Back"], true, true);
    assert_eq!(read_select("2", &r, true), picked(1));
    assert_eq!(read_select(" green ", &r, true), picked(1));
    assert_eq!(read_select("4", &r, true), Reading::TypeOther(vec![]));
    assert_eq!(
        read_select("5", &r, true),
        Reading::Reply(SelectReply::Discuss)
    );
    assert!(matches!(read_select("6", &r, true), Reading::Invalid(m) if m.contains("no option 6")));
    // A label wins over a command of the same name.
    assert_eq!(read_select("back", &r, true), picked(2));
    assert_eq!(
        read_select("skip", &r, true),
        Reading::Reply(SelectReply::Nav(Nav::Skip))
    );
    assert_eq!(
        read_select("teal", &r, true),
        Reading::Reply(SelectReply::Other("teal".into()))
    );
    assert!(matches!(read_select("", &r, true), Reading::Invalid(_)));
    assert_eq!(
        read_select("", &r, false),
        Reading::Reply(SelectReply::Nav(Nav::Skip))
    );
    let closed = select(&["Red"], false, false);
    assert!(matches!(
        read_select("teal", &closed, true),
        Reading::Invalid(_)
    ));
    assert!(matches!(read_select("2", &closed, true), Reading::Invalid(m) if m.contains("1 to 1")));
    let with_default = SelectRequest {
        selected: Some(1),
        ..select(&["Red", "Green"], true, false)
    };
    assert_eq!(read_select("", &with_default, true), picked(1));
}

#[test]
fn only_ascii_digits_are_numbers() {
    let r = select(&["Red", "Green", "Blue"], true, false);
    for word in ["+3", "²", "٣", "3.0", "-1", "1e0"] {
        assert_eq!(
            read_select(word, &r, true),
            Reading::Reply(SelectReply::Other(word.into())),
            "{word}"
        );
    }
    let closed = select(&["Red", "Green", "Blue"], false, false);
    assert!(matches!(
        read_select("+3", &closed, true),
        Reading::Invalid(_)
    ));
    assert!(matches!(
        read_select("99999999999999999999999", &closed, true),
        Reading::Invalid(m) if m.contains("no option 99999999999999999999999")
    ));
    assert_eq!(
        picks_of("1, ²", 3),
        multi_picked(vec![], Some("1, ²")),
        "a list with a word in it is a typed answer"
    );
}

fn picks_of(line: &str, count: usize) -> Reading<MultiSelectReply> {
    let labels: Vec<String> = (1..=count).map(|n| format!("Option {n}")).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    read_multi(line, &multi(&labels, true))
}

#[test]
fn labels_match_whatever_their_case_in_any_script() {
    let r = select(&["Élan", "ÆON", "İstanbul"], false, false);
    assert_eq!(read_select("élan", &r, true), picked(0));
    assert_eq!(read_select("ÉLAN", &r, true), picked(0));
    assert_eq!(read_select("æon", &r, true), picked(1));
    assert_eq!(read_select("İSTANBUL", &r, true), picked(2));
}

#[test]
fn a_note_follows_a_colon_where_notes_are_offered() {
    let noted = |index, note: &str| {
        Reading::Reply(SelectReply::Picked(Pick {
            index,
            note: Some(note.into()),
        }))
    };
    let r = SelectRequest {
        notes: true,
        ..select(&["Red", "Green"], true, false)
    };
    assert_eq!(
        read_select("2: only at night", &r, true),
        noted(1, "only at night")
    );
    assert_eq!(read_select(" 1 :x: y ", &r, true), noted(0, "x: y"));
    // Not an option's number: a typed answer, as without notes.
    assert_eq!(
        read_select("9: teal", &r, true),
        Reading::Reply(SelectReply::Other("9: teal".into()))
    );
    let without = select(&["Red", "Green"], true, false);
    assert_eq!(
        read_select("2: only at night", &without, true),
        Reading::Reply(SelectReply::Other("2: only at night".into()))
    );
    let earlier = SelectRequest {
        selected: Some(0),
        note: Some("kept".into()),
        ..r
    };
    assert_eq!(read_select("", &earlier, true), noted(0, "kept"));
    let m = MultiSelectRequest {
        notes: true,
        ..multi(&["A", "B", "C"], false)
    };
    assert_eq!(
        read_multi("1, 3: both, please", &m),
        Reading::Reply(MultiSelectReply::Picked(MultiPick {
            picked: vec![0, 2],
            other: None,
            note: Some("both, please".into()),
        }))
    );
}

#[test]
fn a_multi_select_reads_lists_ranges_labels_and_typed_answers() {
    let r = MultiSelectRequest {
        selected: vec![2],
        ..multi(&["A", "B", "C"], true)
    };
    assert_eq!(read_multi("", &r), multi_picked(vec![2], None));
    assert_eq!(read_multi("1 2", &r), multi_picked(vec![0, 1], None));
    assert_eq!(read_multi("2-3,1 2", &r), multi_picked(vec![1, 2, 0], None));
    assert_eq!(read_multi("3-2", &r), multi_picked(vec![1, 2], None));
    assert_eq!(read_multi("none", &r), multi_picked(vec![], None));
    assert_eq!(read_multi("1, 4", &r), Reading::TypeOther(vec![0]));
    assert_eq!(read_multi("b", &r), multi_picked(vec![1], None));
    assert_eq!(
        read_multi("something new", &r),
        multi_picked(vec![], Some("something new"))
    );
    assert_eq!(
        read_multi("back", &r),
        Reading::Reply(MultiSelectReply::Nav(Nav::Back))
    );
    assert!(matches!(read_multi("1, 9", &r), Reading::Invalid(m) if m.contains("no option 9")));
    assert!(matches!(read_multi("2-7", &r), Reading::Invalid(m) if m.contains("no option 5")));
    assert!(matches!(read_multi("0", &r), Reading::Invalid(m) if m.contains("no option 0")));
}

#[test]
fn a_range_over_thousands_of_options_is_read_at_once() {
    let labels: Vec<String> = (1..=10_000).map(|n| format!("Option {n}")).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let r = multi(&labels, false);
    let Reading::Reply(MultiSelectReply::Picked(pick)) = read_multi("1-10000", &r) else {
        panic!("not read as picks");
    };
    assert_eq!(pick.picked.len(), 10_000);
}

#[test]
fn the_review_sends_on_enter_and_edits_by_number() {
    assert_eq!(read_review("", 2), Reading::Reply(ReviewReply::Submit));
    assert_eq!(read_review(" 2 ", 2), Reading::Reply(ReviewReply::Edit(1)));
    assert_eq!(read_review("back", 2), Reading::Reply(ReviewReply::Edit(1)));
    assert_eq!(read_review("quit", 2), Reading::Reply(ReviewReply::Cancel));
    assert!(matches!(read_review("3", 2), Reading::Invalid(m) if m.contains("1 to 2")));
    assert!(matches!(read_review("+1", 2), Reading::Invalid(_)));
}

#[test]
fn a_confirm_reads_yes_and_no_and_takes_its_default_on_enter() {
    let answered = |yes| Reading::Reply(ConfirmReply::Answered(yes));
    assert_eq!(read_confirm(" Yes ", None, true), answered(true));
    assert_eq!(read_confirm("N", None, true), answered(false));
    assert_eq!(read_confirm("", Some(false), true), answered(false));
    assert_eq!(
        read_confirm("", None, false),
        Reading::Reply(ConfirmReply::Nav(Nav::Skip))
    );
    assert!(matches!(read_confirm("", None, true), Reading::Invalid(_)));
    assert!(matches!(
        read_confirm("oui", None, true),
        Reading::Invalid(_)
    ));
}

#[test]
fn a_refused_line_is_said_and_another_read() {
    let mut typed = Typed::new(&["7", "2"]);
    let mut lines = Lines::new(&mut typed);
    let mut request = select(&["Red", "Green"], false, false);
    let reply = lines.select(&frame("Colour?", true), &mut request);
    drop(lines);
    assert_eq!(
        reply,
        SelectReply::Picked(Pick {
            index: 1,
            note: None
        })
    );
    let screen = typed.screen();
    assert!(
        screen.contains("Colour?\n  1. Red\n  2. Green\n"),
        "{screen}"
    );
    assert!(
        screen.contains("> ! There is no option 7; type a number from 1 to 2.\n> "),
        "{screen}"
    );
    let alert = typed.written.iter().find(|s| s.tone == Tone::Alert);
    assert_eq!(
        alert.map(|s| s.text.as_str()),
        Some("! There is no option 7; type a number from 1 to 2.")
    );
}

#[test]
fn a_line_over_the_hosts_limit_is_refused_and_asked_for_again() {
    let mut typed = Typed::new(&[]);
    typed.lines = [LineRead::TooLong(8), LineRead::Line("hunter2".into())].into();
    let mut lines = Lines::new(&mut typed);
    let secret = text_request(false, true);
    let reply = lines.text(&frame("Token?", true), &secret);
    drop(lines);
    assert_eq!(reply, TextReply::Submitted("hunter2".into()));
    assert_eq!(typed.hidden, [true, true], "a secret is read unechoed");
    assert_eq!(
        typed.answering,
        [Some(1), Some(1)],
        "the host is told which question"
    );
    let screen = typed.screen();
    assert!(
        screen.contains("> ! That line is more than 8 bytes; type a shorter answer.\n> "),
        "{screen}"
    );
}

#[test]
fn the_end_of_input_cancels_a_question_but_sends_a_review() {
    let mut typed = Typed::new(&["fits"]);
    let mut lines = Lines::new(&mut typed);
    let multiline = text_request(true, false);
    assert_eq!(
        lines.text(&frame("Notes?", true), &multiline),
        TextReply::Nav(Nav::Cancel)
    );
    let review = ReviewRequest {
        items: vec![],
        context: None,
        declinable: false,
    };
    assert_eq!(lines.review(&review), ReviewReply::Submit);
    drop(lines);

    let mut typed = Typed::new(&[]);
    typed.last = LineRead::Interrupted;
    let mut lines = Lines::new(&mut typed);
    assert_eq!(lines.review(&review), ReviewReply::Cancel);
}

#[test]
fn quit_leaves_even_where_an_option_is_called_quit() {
    let mut typed = Typed::new(&["QUIT", "1"]);
    let mut lines = Lines::new(&mut typed);
    let mut request = select(&["Quit", "Stay"], false, false);
    let reply = lines.select(&frame("Leave?", true), &mut request);
    assert_eq!(reply, SelectReply::Nav(Nav::Cancel));
    // Nothing more is read or shown once the person has left.
    let again = lines.select(&frame("Leave?", true), &mut request);
    drop(lines);
    assert_eq!(again, SelectReply::Nav(Nav::Cancel));
    assert_eq!(typed.lines.len(), 1);
}

#[test]
fn decline_is_a_word_only_where_the_request_may_be_declined() {
    let mut typed = Typed::new(&["decline"]);
    let mut lines = Lines::new(&mut typed);
    let declinable = Frame {
        declinable: true,
        ..frame("Name?", true)
    };
    let text = text_request(false, false);
    assert_eq!(lines.text(&declinable, &text), TextReply::Nav(Nav::Decline));
    drop(lines);
    let mut typed = Typed::new(&["decline"]);
    let mut lines = Lines::new(&mut typed);
    assert_eq!(
        lines.text(&frame("Name?", true), &text),
        TextReply::Submitted("decline".into())
    );
}

#[test]
fn hints_are_said_once_and_the_place_and_optional_mark_come_from_the_frame() {
    let mut typed = Typed::new(&["1", "2"]);
    let mut lines = Lines::new(&mut typed);
    let mut request = select(&["Red", "Green"], false, false);
    let placed = Frame {
        place: Some("Question 1 of 2 · Paint".into()),
        ..frame("Colour?", false)
    };
    lines.select(&placed, &mut request);
    lines.select(&placed, &mut request);
    drop(lines);
    let screen = typed.screen();
    assert_eq!(screen.matches("Type the number of your choice.").count(), 1);
    assert_eq!(
        screen.matches("Commands: back, skip, quit, help.").count(),
        1
    );
    assert!(
        screen.contains("Question 1 of 2 · Paint\nColour? (optional)\n"),
        "{screen}"
    );
}

#[test]
fn help_on_a_text_question_shows_it_again_and_is_no_answer() {
    let mut typed = Typed::new(&["help", "Ada"]);
    let mut lines = Lines::new(&mut typed);
    let request = text_request(false, false);
    let reply = lines.text(&frame("Name?", true), &request);
    drop(lines);
    assert_eq!(reply, TextReply::Submitted("Ada".into()));
    assert_eq!(typed.screen().matches("Name?\n").count(), 2);
}

#[test]
fn an_option_called_none_is_picked_by_its_label() {
    let r = multi(&["Some", "None"], false);
    assert_eq!(read_multi("none", &r), multi_picked(vec![1], None));
    assert_eq!(
        read_multi("none", &multi(&["Some"], false)),
        multi_picked(vec![], None)
    );
}

/// The tool call `request` answered in the line mode with `lines`: its result, which must be
/// `answered`, and what was read and written.
fn answered_in_lines(request: &str, lines: &[&str]) -> (serde_json::Value, Typed) {
    let settings = Settings {
        skip_response: None,
    };
    let mut typed = Typed::new(lines);
    let result = crate::tool::call("interview", request, &settings, &mut Lines::new(&mut typed));
    let json: serde_json::Value = serde_json::from_str(&result.json).unwrap();
    assert_eq!(result.status, Status::Answered, "{json}");
    (json, typed)
}

/// A secret choice's own answer could be typed at its list's prompt by habit: every line of
/// the question is read hidden (so no host echoes or keeps it), and the pick is said instead.
#[test]
fn a_secret_choice_reads_its_list_hidden_and_says_the_pick() {
    let request = r#"{"questions": [
        {"question": "Which key?", "options": ["Staging key", "Prod key"], "secret": true},
        {"question": "Region?", "options": ["eu", "us"]}
    ]}"#;
    let (json, typed) = answered_in_lines(
        request,
        &["sk-typed-at-the-list", "3", "sk-live-1", "2", ""],
    );
    assert_eq!(json["answers"][0]["value"], "sk-live-1");
    assert_eq!(json["answers"][1]["value"], "us");
    // The list's two lines and the typed answer hidden; the next question's list and the
    // review's Enter seen.
    assert_eq!(typed.hidden, [true, true, true, false, false]);
    let screen = typed.screen();
    assert!(
        screen.contains("What you type here is not shown"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("Picked: 3. {OTHER_LABEL}")),
        "{screen}"
    );
    assert!(!screen.contains("sk-"), "{screen}");
}

/// A secret multi-select's list is read hidden as a select's is, says its picks, and goes back
/// to reading in sight once it is left, here by `back` from the hidden field.
#[test]
fn a_secret_multi_select_reads_its_list_hidden_until_it_is_left() {
    let request = r#"{"questions": [
        {"question": "Which keys?", "options": ["Staging key", "Prod key"], "multiSelect": true, "secret": true},
        {"question": "Region?", "options": ["eu", "us"]}
    ]}"#;
    let (json, typed) = answered_in_lines(request, &["1,3", "back", "1,2", "2", ""]);
    assert_eq!(
        json["answers"][0]["value"],
        serde_json::json!(["Staging key", "Prod key"])
    );
    assert_eq!(typed.hidden, [true, true, true, false, false]);
    let screen = typed.screen();
    assert!(
        screen.contains(&format!("Picked: 1. Staging key, 3. {OTHER_LABEL}")),
        "{screen}"
    );
    assert!(
        screen.contains("Picked: 1. Staging key, 2. Prod key"),
        "{screen}"
    );
}
