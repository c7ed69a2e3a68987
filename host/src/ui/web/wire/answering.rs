//! The answering side of a relay: a widget put up elsewhere (a team inbox's question, as its
//! server lists it) drawn by a [`Ui`] here, and the person's reply written as the relay reads
//! it, so that a terminal answers what a page answers, in the same JSON.
//!
//! A view comes from another process: it is read as strictly as [`checked_view`] reads it, and
//! everything it shows is cleaned as the plugin's own widgets are (see `ui::cleaned`).

use serde_json::{Value as Json, json};

use super::{
    ChoiceView, ConfirmView, FrameView, MultiSelectView, NumberView, ReviewView, ReviewWidget,
    SelectView, TextView, UnfitView, Widget, checked_view,
};
use crate::ui::*;

/// Draws the widget `view` of `kind` describes with `ui`, and gives the person's reply as the
/// relay takes it (the JSON the page posts). A view that is no widget of that kind is an error
/// that says what is wrong with it. A reply the UI gave because it was stopped (see
/// [`Ui::stop_reason`]) is the person's only when the caller says so.
pub fn answer(kind: &str, view: &Json, ui: &mut dyn Ui) -> Result<Json, UnfitView> {
    let view = checked_view(kind, view)?;
    let read = UnfitView::Shape;
    Ok(match kind {
        "select" => {
            let widget: Widget<SelectView> = serde_json::from_value(view).map_err(read)?;
            let request = cleaned::select(select_request(widget.request)?);
            select_json(&ui.select(&frame(widget.frame), &request))
        }
        "multi_select" => {
            let widget: Widget<MultiSelectView> = serde_json::from_value(view).map_err(read)?;
            let request = cleaned::multi_select(multi_select_request(widget.request)?);
            multi_select_json(&ui.multi_select(&frame(widget.frame), &request))
        }
        "text" => {
            let widget: Widget<TextView> = serde_json::from_value(view).map_err(read)?;
            let t = widget.request;
            let given = TextRequest {
                multiline: t.multiline,
                placeholder: t.placeholder,
                initial: t.initial,
                secret: t.secret,
                min_length: t.min_length,
                max_length: t.max_length,
            };
            let shown = cleaned::text(given.clone());
            let reply = ui.text(&frame(widget.frame), &shown);
            text_json(&cleaned::as_given(reply, &shown, given))
        }
        "confirm" => {
            let widget: Widget<ConfirmView> = serde_json::from_value(view).map_err(read)?;
            let request = ConfirmRequest {
                initial: widget.request.initial,
            };
            confirm_json(&ui.confirm(&frame(widget.frame), &request))
        }
        "number" => {
            let widget: Widget<NumberView> = serde_json::from_value(view).map_err(read)?;
            // The range is the asker's plugin's to check; the frame's hint says it in words.
            let request = NumberRequest {
                initial: widget.request.initial,
                min: None,
                max: None,
                exclusive_min: None,
                exclusive_max: None,
                integer: widget.request.integer,
            };
            number_json(&ui.number(&frame(widget.frame), &request))
        }
        "review" => {
            let widget: ReviewWidget = serde_json::from_value(view).map_err(read)?;
            review_json(&ui.review(&cleaned::review(review_request(widget.request))))
        }
        other => return Err(UnfitView::NotAWidget(other.to_owned())),
    })
}

fn frame(view: FrameView) -> Frame {
    cleaned::frame(Frame {
        position: view.position,
        total: view.total,
        header: view.header,
        place: view.place,
        prompt: view.prompt,
        required: view.required,
        mark_optional: view.mark_optional,
        hint: view.hint,
        error: view.error,
        context: view.context,
        declinable: view.declinable,
    })
}

/// The options of a view, cleaned. The page is never sent their values (what the asker's
/// plugin gives the agent), so each stands for its label here: the reply names the option by
/// its index.
fn options(views: Vec<ChoiceView>) -> Result<Options, UnfitView> {
    let mut options = Options::with_capacity(views.len(), 0);
    for view in &views {
        let choice = ChoiceRef {
            description: view.description.as_deref(),
            preview: view.preview.as_deref(),
            recommended: view.recommended,
            ..ChoiceRef::plain(&view.label)
        };
        cleaned::push_choice(&mut options, choice).map_err(|e| UnfitView::Option(e.to_string()))?;
    }
    Ok(options)
}

fn select_request(view: SelectView) -> Result<SelectRequest, UnfitView> {
    Ok(SelectRequest {
        options: options(view.options)?,
        selected: view.selected,
        other_label: view.other_label,
        other_text: view.other_text,
        discuss_label: view.discuss_label,
        notes: view.notes,
        note: view.note,
    })
}

fn multi_select_request(view: MultiSelectView) -> Result<MultiSelectRequest, UnfitView> {
    Ok(MultiSelectRequest {
        options: options(view.options)?,
        selected: view.selected,
        other_label: view.other_label,
        other_text: view.other_text,
        min_picks: view.min_picks,
        max_picks: view.max_picks,
        notes: view.notes,
        note: view.note,
    })
}

fn review_request(view: ReviewView) -> ReviewRequest {
    ReviewRequest {
        items: (view.items.into_iter())
            .map(|item| ReviewItem {
                header: item.header,
                prompt: item.prompt,
                answer: item.answer,
            })
            .collect(),
        context: view.context,
        declinable: view.declinable,
    }
}

/// `{"nav": "back"}` and its kin, as [`super::select_reply`] and the others read them. A
/// person's UI never answers [`Nav::TimeUp`]: the relay's own clock does, and a reply that
/// says it is refused.
fn nav_json(nav: Nav) -> Json {
    let name = match nav {
        Nav::Back => "back",
        Nav::Skip => "skip",
        Nav::Cancel => "cancel",
        Nav::Decline => "decline",
        Nav::TimeUp => "time_up",
    };
    json!({ "nav": name })
}

/// A single choice's reply as the page posts it.
pub fn select_json(reply: &SelectReply) -> Json {
    match reply {
        SelectReply::Picked(Pick { index, note }) => match note {
            Some(note) => json!({ "picked": index, "note": note }),
            None => json!({ "picked": index }),
        },
        SelectReply::Other(typed) => json!({ "other": typed }),
        SelectReply::Discuss => json!({ "discuss": true }),
        SelectReply::Nav(nav) => nav_json(*nav),
    }
}

/// A multiple choice's reply as the page posts it.
pub fn multi_select_json(reply: &MultiSelectReply) -> Json {
    match reply {
        MultiSelectReply::Picked(pick) => {
            json!({ "picked": pick.picked, "other": pick.other, "note": pick.note })
        }
        MultiSelectReply::Nav(nav) => nav_json(*nav),
    }
}

/// A text question's reply as the page posts it.
pub fn text_json(reply: &TextReply) -> Json {
    match reply {
        TextReply::Submitted(text) => json!({ "submitted": text }),
        TextReply::Nav(nav) => nav_json(*nav),
    }
}

/// A yes-or-no question's reply as the page posts it.
pub fn confirm_json(reply: &ConfirmReply) -> Json {
    match reply {
        ConfirmReply::Answered(yes) => json!({ "answered": yes }),
        ConfirmReply::Nav(nav) => nav_json(*nav),
    }
}

/// A number question's reply as the page posts it.
pub fn number_json(reply: &NumberReply) -> Json {
    match reply {
        NumberReply::Entered(typed) => json!({ "entered": typed }),
        NumberReply::Nav(nav) => nav_json(*nav),
    }
}

/// The review's reply as the page posts it.
pub fn review_json(reply: &ReviewReply) -> Json {
    match reply {
        ReviewReply::Submit => json!({ "review": "submit" }),
        ReviewReply::Edit(n) => json!({ "edit": n }),
        ReviewReply::Cancel => json!({ "review": "cancel" }),
        ReviewReply::Decline => json!({ "review": "decline" }),
        ReviewReply::TimeUp => nav_json(Nav::TimeUp),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        confirm, multi_select, multi_select_reply, number_reply, review, review_reply, select,
        select_reply, text, text_reply,
    };
    use super::*;
    use crate::ui::scripted::{ScriptedUi, Shown, Step};
    use crate::ui::testing::{frame as framed, options};

    fn view(frame_of: &Frame, request: Json) -> Json {
        json!({ "frame": super::super::frame(frame_of), "request": request })
    }

    fn select_request() -> SelectRequest {
        SelectRequest {
            options: options(&["Staging", "Production"]),
            selected: Some(1),
            other_label: Some("Other".into()),
            other_text: None,
            discuss_label: Some("Discuss".into()),
            notes: true,
            note: None,
        }
    }

    #[test]
    fn every_reply_a_person_gives_is_read_back_as_that_reply() {
        let navs = [Nav::Back, Nav::Skip, Nav::Cancel, Nav::Decline];
        let picks = [
            SelectReply::Picked(Pick {
                index: 1,
                note: Some("after lunch".into()),
            }),
            SelectReply::picked(0),
            SelectReply::Other("canary".into()),
            SelectReply::Discuss,
        ];
        for reply in picks.into_iter().chain(navs.map(SelectReply::Nav)) {
            assert_eq!(select_reply(&select_json(&reply)), Some(reply));
        }
        let many = [
            MultiSelectReply::Picked(MultiPick {
                picked: vec![0, 2],
                other: Some("docs".into()),
                note: Some("why".into()),
            }),
            MultiSelectReply::Picked(MultiPick {
                picked: vec![],
                other: None,
                note: None,
            }),
        ];
        for reply in many.into_iter().chain(navs.map(MultiSelectReply::Nav)) {
            assert_eq!(multi_select_reply(&multi_select_json(&reply)), Some(reply));
        }
        for reply in [TextReply::Submitted("a\nb".into())]
            .into_iter()
            .chain(navs.map(TextReply::Nav))
        {
            assert_eq!(text_reply(&text_json(&reply)), Some(reply));
        }
        for reply in [ConfirmReply::Answered(false)]
            .into_iter()
            .chain(navs.map(ConfirmReply::Nav))
        {
            assert_eq!(confirm_reply_of(&reply), Some(reply));
        }
        for reply in [NumberReply::Entered("4.5".into())]
            .into_iter()
            .chain(navs.map(NumberReply::Nav))
        {
            assert_eq!(number_reply(&number_json(&reply)), Some(reply));
        }
        for reply in [
            ReviewReply::Submit,
            ReviewReply::Edit(3),
            ReviewReply::Cancel,
            ReviewReply::Decline,
        ] {
            assert_eq!(review_reply(&review_json(&reply)), Some(reply));
        }
    }

    fn confirm_reply_of(reply: &ConfirmReply) -> Option<ConfirmReply> {
        super::super::confirm_reply(&confirm_json(reply))
    }

    #[test]
    fn a_relayed_widget_is_drawn_as_the_plugin_put_it_and_answered_in_the_pages_json() {
        let asked = framed("Where to?", true);
        let request = select_request();
        let mut ui = ScriptedUi::new([Step::Select(SelectReply::picked(1))]);
        let reply = answer("select", &view(&asked, select(&request)), &mut ui).unwrap();
        assert_eq!(reply, json!({ "picked": 1 }));
        match ui.shown() {
            [Shown::Select(shown, drawn)] => {
                assert_eq!(shown, &asked);
                // Values never travel: each option stands for its label.
                let labels: Vec<_> = drawn.options.iter().map(|o| o.label).collect();
                assert_eq!(labels, ["Staging", "Production"]);
                assert_eq!(drawn.selected, Some(1));
                assert_eq!(drawn.discuss_label.as_deref(), Some("Discuss"));
            }
            other => panic!("{other:?}"),
        }

        let request = MultiSelectRequest {
            options: options(&["A", "B"]),
            selected: vec![1],
            other_label: None,
            other_text: None,
            min_picks: Some(1),
            max_picks: None,
            notes: false,
            note: None,
        };
        let mut ui = ScriptedUi::new([Step::MultiSelect(MultiSelectReply::Nav(Nav::Back))]);
        let reply = answer(
            "multi_select",
            &view(&asked, multi_select(&request)),
            &mut ui,
        );
        assert_eq!(reply.unwrap(), json!({ "nav": "back" }));

        let request = TextRequest {
            multiline: false,
            placeholder: None,
            initial: Some("as\tgiven".into()),
            secret: false,
            min_length: None,
            max_length: None,
        };
        // The default accepted as shown (its tab a space) goes back as it was given.
        let mut ui = ScriptedUi::new([Step::Text(TextReply::Submitted("as given".into()))]);
        let reply = answer("text", &view(&asked, text(&request)), &mut ui).unwrap();
        assert_eq!(reply, json!({ "submitted": "as\tgiven" }));

        let mut ui = ScriptedUi::new([Step::Confirm(ConfirmReply::Answered(true))]);
        let request = ConfirmRequest {
            initial: Some(false),
        };
        let reply = answer("confirm", &view(&asked, confirm(&request)), &mut ui).unwrap();
        assert_eq!(reply, json!({ "answered": true }));

        let request = ReviewRequest {
            items: vec![ReviewItem {
                header: None,
                prompt: "Where to?".into(),
                answer: "Production".into(),
            }],
            context: None,
            declinable: false,
        };
        let mut ui = ScriptedUi::new([Step::Review(ReviewReply::Edit(0))]);
        let reply = answer("review", &json!({ "request": review(&request) }), &mut ui);
        assert_eq!(reply.unwrap(), json!({ "edit": 0 }));
        assert!(matches!(ui.shown(), [Shown::Review(shown)] if *shown == request));
    }

    #[test]
    fn a_relayed_view_shows_no_control_sequence_and_no_pick_past_its_options() {
        let mut asked = framed("Deploy?\x1b]52;c;cGF5bG9hZA==\x07 now", true);
        asked.header = Some("Ops\x1b[2J".into());
        let mut request = select_request();
        request.other_label = Some("Other\x1b[31m".into());
        let mut shown = view(&asked, select(&request));
        shown["request"]["options"][0]["label"] = json!("Sta\x1b[8mging");
        let mut ui = ScriptedUi::new([Step::Select(SelectReply::picked(0))]);
        answer("select", &shown, &mut ui).unwrap();
        let [Shown::Select(frame, request)] = ui.shown() else {
            panic!("{:?}", ui.shown());
        };
        let mut texts = vec![&frame.prompt];
        texts.extend(&frame.header);
        texts.extend(&request.other_label);
        let labels: Vec<String> = request.options.iter().map(|o| o.label.into()).collect();
        for text in texts.into_iter().chain(&labels) {
            assert!(!text.contains(['\x1b', '\x07']), "{text:?}");
        }
        assert_eq!(labels[0], "Staging");

        shown["request"]["selected"] = json!(7);
        let refused = answer("select", &shown, &mut ScriptedUi::new([])).unwrap_err();
        assert!(
            matches!(refused, UnfitView::PickPast { pick: 7, count: 2 }),
            "{refused}"
        );
        let refused = answer("banner", &shown, &mut ScriptedUi::new([])).unwrap_err();
        assert!(matches!(refused, UnfitView::NotAWidget(_)), "{refused}");
    }
}
