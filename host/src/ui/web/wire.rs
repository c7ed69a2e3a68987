//! What the page is sent (a widget's frame and request, as JSON) and what it posts back (the
//! person's reply), read into the WIT's reply types. A reply that doesn't read is `None`: the
//! page is told, and the widget stays open.
//!
//! Public for a UI that relays the widgets to a page elsewhere (the team inbox of the
//! `interview` command), so that its page and this one read the same JSON.

use serde_json::{Value as Json, json};

use crate::ui::*;

mod answering;
pub use answering::{
    answer, confirm_json, multi_select_json, number_json, review_json, select_json, text_json,
};

/// The page itself. `{{NONCE}}` marks where the nonce of its script and style goes (serve it
/// with a Content-Security-Policy that allows only that nonce). It long-polls
/// `view?after=SEQ&tab=ID` for `{seq, kind, frame, request}` (or `{seq, kind: "done"}` …) and
/// posts `{seq, tab, reply}` to `reply`, both relative to its own address; a reply refused
/// with `{"error": …}` is shown on the widget.
pub const PAGE: &str = include_str!("page.html");

/// The look every page shares (colours in both schemes, type, fields, buttons, focus rings):
/// a page's style sheet starts with `{{THEME}}`, which [`html`] fills with it.
pub const THEME: &str = include_str!("theme.css");

/// The Content-Security-Policy a page is served with: only its own script and style, by
/// `nonce`, and requests to its own origin.
pub fn policy(nonce: &str) -> String {
    format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; \
         connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'none'"
    )
}

/// A page (its `{{THEME}}` and `{{NONCE}}` filled) to serve with the [`policy`] of `nonce`.
pub fn html(page: &str, nonce: &str) -> String {
    page.replacen("{{THEME}}", THEME, 1)
        .replace("{{NONCE}}", nonce)
}

/// The frame of a question, with its place line worked out (`Question 2 of 4 · Checks`).
/// The frame of a question as the page reads it.
pub fn frame(frame: &Frame) -> Json {
    json!({
        "place": frame.place,
        "position": frame.position,
        "total": frame.total,
        "header": frame.header,
        "prompt": frame.prompt,
        "required": frame.required,
        "mark_optional": frame.mark_optional,
        "hint": frame.hint,
        "error": frame.error,
        "context": frame.context,
        "declinable": frame.declinable,
    })
}

fn choices(options: &crate::ui::Options) -> Json {
    options
        .iter()
        .map(|o| {
            json!({
                "label": o.label, "description": o.description, "preview": o.preview,
                "recommended": o.recommended,
            })
        })
        .collect()
}

/// A single choice's request as the page reads it.
pub fn select(request: &SelectRequest) -> Json {
    json!({
        "options": choices(&request.options),
        "selected": request.selected,
        "other_label": request.other_label,
        "other_text": request.other_text,
        "discuss_label": request.discuss_label,
        "notes": request.notes,
        "note": request.note,
    })
}

/// A multiple choice's request as the page reads it.
pub fn multi_select(request: &MultiSelectRequest) -> Json {
    json!({
        "options": choices(&request.options),
        "selected": request.selected,
        "other_label": request.other_label,
        "other_text": request.other_text,
        "min_picks": request.min_picks,
        "max_picks": request.max_picks,
        "notes": request.notes,
        "note": request.note,
    })
}

/// A text question's request as the page reads it.
pub fn text(request: &TextRequest) -> Json {
    json!({
        "multiline": request.multiline,
        "placeholder": request.placeholder,
        "initial": request.initial,
        "secret": request.secret,
        "min_length": request.min_length,
        "max_length": request.max_length,
    })
}

/// A yes-or-no question's request as the page reads it.
pub fn confirm(request: &ConfirmRequest) -> Json {
    json!({ "initial": request.initial })
}

/// A number question's request as the page reads it.
pub fn number(request: &NumberRequest) -> Json {
    json!({ "initial": request.initial, "integer": request.integer })
}

/// The review's request as the page reads it.
pub fn review(request: &ReviewRequest) -> Json {
    let items: Vec<Json> = request
        .items
        .iter()
        .map(|i| json!({ "header": i.header, "prompt": i.prompt, "answer": i.answer }))
        .collect();
    json!({ "items": items, "context": request.context, "declinable": request.declinable })
}

/// A UI that puts the plugin's widgets up as JSON and reads the person's replies from JSON:
/// this crate's page, or a team inbox's. It says how one view is put up and answered; the
/// widgets' views and replies are the provided methods' (one mapping for every such UI),
/// which its [`Ui`] methods call.
pub trait WidgetRelay {
    /// Puts `view` (`{frame, request}`, or `{request}` for a review) up as a widget of `kind`
    /// until a reply reads with `read`; a reply that doesn't is put up again with an error.
    /// A UI that stops asking returns `leave(Nav::Cancel)`, at a deadline `leave(Nav::TimeUp)`.
    fn relay<R>(
        &mut self,
        kind: &str,
        view: Json,
        read: fn(&Json) -> Option<R>,
        leave: fn(Nav) -> R,
    ) -> R;

    /// [`Ui::select`] through the relay.
    fn relay_select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        let view = widget(frame, select(request));
        self.relay("select", view, select_reply, SelectReply::Nav)
    }

    /// [`Ui::multi_select`] through the relay.
    fn relay_multi_select(
        &mut self,
        frame: &Frame,
        request: &MultiSelectRequest,
    ) -> MultiSelectReply {
        let view = widget(frame, multi_select(request));
        self.relay(
            "multi_select",
            view,
            multi_select_reply,
            MultiSelectReply::Nav,
        )
    }

    /// [`Ui::text`] through the relay.
    fn relay_text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        let view = widget(frame, text(request));
        self.relay("text", view, text_reply, TextReply::Nav)
    }

    /// [`Ui::confirm`] through the relay.
    fn relay_confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        let view = widget(frame, confirm(request));
        self.relay("confirm", view, confirm_reply, ConfirmReply::Nav)
    }

    /// [`Ui::number`] through the relay.
    fn relay_number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        let view = widget(frame, number(request));
        self.relay("number", view, number_reply, NumberReply::Nav)
    }

    /// [`Ui::review`] through the relay.
    fn relay_review(&mut self, request: &ReviewRequest) -> ReviewReply {
        let leave = |nav| match nav {
            Nav::TimeUp => ReviewReply::TimeUp,
            _ => ReviewReply::Cancel,
        };
        self.relay(
            "review",
            json!({ "request": review(request) }),
            review_reply,
            leave,
        )
    }
}

/// A widget's view: its frame and its request.
fn widget(frame_of: &Frame, request: Json) -> Json {
    json!({ "frame": frame(frame_of), "request": request })
}

/// `{"nav": "back"}` and its kin.
fn nav(reply: &Json) -> Option<Nav> {
    match reply.get("nav")?.as_str()? {
        "back" => Some(Nav::Back),
        "skip" => Some(Nav::Skip),
        "cancel" => Some(Nav::Cancel),
        "decline" => Some(Nav::Decline),
        _ => None,
    }
}

fn text_of(reply: &Json, key: &str) -> Option<String> {
    reply.get(key)?.as_str().map(str::to_string)
}

fn index(value: &Json) -> Option<u32> {
    value.as_u64().and_then(|i| u32::try_from(i).ok())
}

/// The page's reply to a single choice; `None` when it does not read as one.
pub fn select_reply(reply: &Json) -> Option<SelectReply> {
    if let Some(nav) = nav(reply) {
        return Some(SelectReply::Nav(nav));
    }
    if reply.get("discuss") == Some(&Json::Bool(true)) {
        return Some(SelectReply::Discuss);
    }
    if let Some(typed) = text_of(reply, "other") {
        return Some(SelectReply::Other(typed));
    }
    let index = index(reply.get("picked")?)?;
    let note = text_of(reply, "note").filter(|n| !n.trim().is_empty());
    Some(SelectReply::Picked(Pick { index, note }))
}

/// The page's reply to a multiple choice; `None` when it does not read as one.
pub fn multi_select_reply(reply: &Json) -> Option<MultiSelectReply> {
    if let Some(nav) = nav(reply) {
        return Some(MultiSelectReply::Nav(nav));
    }
    let picked = reply
        .get("picked")?
        .as_array()?
        .iter()
        .map(index)
        .collect::<Option<Vec<u32>>>()?;
    let other = text_of(reply, "other").filter(|o| !o.trim().is_empty());
    let note = text_of(reply, "note").filter(|n| !n.trim().is_empty());
    Some(MultiSelectReply::Picked(MultiPick {
        picked,
        other,
        note,
    }))
}

/// The page's reply to a text question; `None` when it does not read as one.
pub fn text_reply(reply: &Json) -> Option<TextReply> {
    match nav(reply) {
        Some(nav) => Some(TextReply::Nav(nav)),
        None => text_of(reply, "submitted").map(TextReply::Submitted),
    }
}

/// The page's reply to a yes-or-no question; `None` when it does not read as one.
pub fn confirm_reply(reply: &Json) -> Option<ConfirmReply> {
    match nav(reply) {
        Some(nav) => Some(ConfirmReply::Nav(nav)),
        None => reply.get("answered")?.as_bool().map(ConfirmReply::Answered),
    }
}

/// The page's reply to a number question; `None` when it does not read as one.
pub fn number_reply(reply: &Json) -> Option<NumberReply> {
    match nav(reply) {
        Some(nav) => Some(NumberReply::Nav(nav)),
        None => text_of(reply, "entered").map(NumberReply::Entered),
    }
}

/// The page's reply to the review; `None` when it does not read as one.
pub fn review_reply(reply: &Json) -> Option<ReviewReply> {
    if let Some(n) = reply.get("edit") {
        return index(n).map(ReviewReply::Edit);
    }
    match reply.get("review")?.as_str()? {
        "submit" => Some(ReviewReply::Submit),
        "cancel" => Some(ReviewReply::Cancel),
        "decline" => Some(ReviewReply::Decline),
        _ => None,
    }
}

/// Why a view another program sent is no widget the page can show: each says what is wrong,
/// as the sentence a refusal carries.
#[derive(Debug)]
#[non_exhaustive]
pub enum UnfitView {
    /// Its kind names no widget of the plugin's.
    NotAWidget(String),
    /// A field is missing, unknown, or of another type than the widget's: serde's words.
    Shape(serde_json::Error),
    /// A choice without options.
    NoOptions,
    /// A choice's pick names no option of those it has.
    PickPast {
        /// The pick, from 0.
        pick: u32,
        /// How many options the choice has.
        count: usize,
    },
    /// An option cannot be shown (the list's own limits).
    Option(String),
}

impl std::fmt::Display for UnfitView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnfitView::NotAWidget(kind) => write!(f, "'{kind}' is not a widget of the plugin's"),
            UnfitView::Shape(error) => error.fmt(f),
            UnfitView::NoOptions => f.write_str("a choice without options"),
            UnfitView::PickPast { pick, count } => write!(f, "pick {pick} of {count} options"),
            UnfitView::Option(why) => f.write_str(why),
        }
    }
}

// No `source`: the cause is in the sentence already.
impl std::error::Error for UnfitView {}

impl From<serde_json::Error> for UnfitView {
    fn from(error: serde_json::Error) -> UnfitView {
        UnfitView::Shape(error)
    }
}

/// A view as another program sends it to be stored and shown (a team inbox's asker), checked
/// against the widget it says it is, field by field and type by type, as the page reads it:
/// the view again, as the page is to get it, or what is wrong with it. A page never gets a
/// view of another shape (a prompt that is an object made the team's list throw).
pub fn checked_view(kind: &str, view: &Json) -> Result<Json, UnfitView> {
    match kind {
        "select" => checked(view, |widget: &Widget<SelectView>| {
            let request = &widget.request;
            picks_within(request.selected.iter(), request.options.len())
        }),
        "multi_select" => checked(view, |widget: &Widget<MultiSelectView>| {
            let request = &widget.request;
            picks_within(request.selected.iter(), request.options.len())
        }),
        "text" => checked(view, anything::<Widget<TextView>>),
        "confirm" => checked(view, anything::<Widget<ConfirmView>>),
        "number" => checked(view, anything::<Widget<NumberView>>),
        "review" => checked(view, anything::<ReviewWidget>),
        other => Err(UnfitView::NotAWidget(other.to_owned())),
    }
}

/// No rule beyond the types.
fn anything<T>(_: &T) -> Result<(), UnfitView> {
    Ok(())
}

/// `view` read as a `T` that keeps to `rule`, and written again.
fn checked<T: serde::de::DeserializeOwned + serde::Serialize>(
    view: &Json,
    rule: impl Fn(&T) -> Result<(), UnfitView>,
) -> Result<Json, UnfitView> {
    let typed: T = serde_json::from_value(view.clone())?;
    rule(&typed)?;
    Ok(serde_json::to_value(typed)?)
}

/// A choice's picks name its options, and it has one at least.
fn picks_within<'a>(picks: impl Iterator<Item = &'a u32>, count: usize) -> Result<(), UnfitView> {
    if count == 0 {
        return Err(UnfitView::NoOptions);
    }
    match picks.into_iter().find(|&&pick| pick as usize >= count) {
        Some(&pick) => Err(UnfitView::PickPast { pick, count }),
        None => Ok(()),
    }
}

// The page's JSON, as the functions above write it, for [`checked_view`] to read: a field
// more, or less, or of another type, is refused.

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct Widget<R> {
    frame: FrameView,
    request: R,
    /// What was answered to the batch before this widget, for whoever takes it over halfway
    /// (a team's asker puts it on each step after the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kept: Option<Vec<KeptView>>,
}

/// An answer given before, as [`crate::Given::to_json`] writes it.
#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct KeptView {
    position: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    header: Option<String>,
    question: String,
    answer: Json,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct ReviewWidget {
    request: ReviewView,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct FrameView {
    place: Option<String>,
    position: u32,
    total: u32,
    header: Option<String>,
    prompt: String,
    required: bool,
    mark_optional: bool,
    hint: Option<String>,
    error: Option<String>,
    context: Option<String>,
    declinable: bool,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct ChoiceView {
    label: String,
    description: Option<String>,
    preview: Option<String>,
    recommended: bool,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct SelectView {
    options: Vec<ChoiceView>,
    selected: Option<u32>,
    other_label: Option<String>,
    other_text: Option<String>,
    discuss_label: Option<String>,
    notes: bool,
    note: Option<String>,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct MultiSelectView {
    options: Vec<ChoiceView>,
    selected: Vec<u32>,
    other_label: Option<String>,
    other_text: Option<String>,
    min_picks: Option<u32>,
    max_picks: Option<u32>,
    notes: bool,
    note: Option<String>,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct TextView {
    multiline: bool,
    placeholder: Option<String>,
    initial: Option<String>,
    secret: bool,
    min_length: Option<u32>,
    max_length: Option<u32>,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct ConfirmView {
    initial: Option<bool>,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct NumberView {
    initial: Option<f64>,
    integer: bool,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct ReviewItemView {
    header: Option<String>,
    prompt: String,
    answer: String,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct ReviewView {
    items: Vec<ReviewItemView>,
    context: Option<String>,
    declinable: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::{frame, options};

    #[test]
    fn every_view_this_page_is_sent_is_taken_as_it_is() {
        let select = SelectRequest {
            options: options(&["A", "B"]),
            selected: Some(1),
            other_label: Some("Other".into()),
            other_text: None,
            discuss_label: None,
            notes: true,
            note: None,
        };
        let view = json!({ "frame": super::frame(&frame("Which?", true)), "request": super::select(&select) });
        assert_eq!(checked_view("select", &view).unwrap(), view);
        // With what was answered before it, as a team's asker sends it after the first step.
        let kept = json!({
            "frame": super::frame(&frame("Which?", true)), "request": super::select(&select),
            "kept": [crate::Given {
                position: 1, header: Some("Env".into()), prompt: "Where?".into(),
                answer: json!(["a", "b"]), note: None,
            }.to_json()],
        });
        assert_eq!(checked_view("select", &kept).unwrap(), kept);
        let confirm = ConfirmRequest {
            initial: Some(true),
        };
        let view = json!({ "frame": super::frame(&frame("Which?", true)), "request": super::confirm(&confirm) });
        assert_eq!(checked_view("confirm", &view).unwrap(), view);
    }

    #[test]
    fn a_view_of_another_shape_is_refused_saying_why() {
        let mut view = json!({
            "frame": super::frame(&frame("Which?", true)),
            "request": super::confirm(&ConfirmRequest { initial: None }),
        });
        view["frame"]["prompt"] = json!({"an": "object"});
        assert!(
            checked_view("confirm", &view)
                .unwrap_err()
                .to_string()
                .contains("string")
        );
        view["frame"]["prompt"] = json!("Which?");
        view["frame"]["onclick"] = json!("x");
        assert!(
            checked_view("confirm", &view)
                .unwrap_err()
                .to_string()
                .contains("onclick")
        );
        assert!(matches!(
            checked_view("banner", &view),
            Err(UnfitView::NotAWidget(kind)) if kind == "banner"
        ));
        let select = json!({"frame": super::frame(&frame("Which?", true)), "request": {
            "options": [], "selected": null, "other_label": null, "other_text": null,
            "discuss_label": null, "notes": false, "note": null}});
        assert!(matches!(
            checked_view("select", &select),
            Err(UnfitView::NoOptions)
        ));
    }
}
