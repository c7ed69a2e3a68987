//! What the page is sent (a widget's frame and request, as JSON) and what it posts back (the
//! person's reply), read into the WIT's reply types. A reply that doesn't read is `None`: the
//! page is told, and the widget stays open.
//!
//! Public for a UI that relays the widgets to a page elsewhere (the team inbox of the
//! `interview` command), so that its page and this one read the same JSON.

use serde_json::{Value as Json, json};

use crate::ui::*;

/// The page itself. `{{NONCE}}` marks where the nonce of its script and style goes (serve it
/// with a Content-Security-Policy that allows only that nonce). It long-polls
/// `view?after=SEQ&tab=ID` for `{seq, kind, frame, request}` (or `{seq, kind: "done"}` …) and
/// posts `{seq, tab, reply}` to `reply`, both relative to its own address; a reply refused
/// with `{"error": …}` is shown on the widget.
pub const PAGE: &str = include_str!("page.html");

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

fn choices(options: &crate::Options) -> Json {
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
