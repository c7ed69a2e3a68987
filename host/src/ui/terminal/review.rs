//! The review of a batch: every answer listed; Enter submits, a number or the arrows and Enter
//! pick one to change, Esc cancels. Where the request can be declined (an MCP elicitation),
//! a "Decline" entry and Ctrl-X decline it; a request without questions is only accepted or
//! declined.

use unicode_width::UnicodeWidthStr;

use super::keys::Key;
use super::list::List;
use super::render::{Line, truncate};
use super::widget::*;
use crate::ui::ReviewItem;
use crate::ui::{Nav, ReviewReply, ReviewRequest};

pub struct Review {
    items: Vec<ReviewItem>,
    declinable: bool,
    /// Entries: the items, then "Submit" (or "Accept"), then "Decline" when declinable.
    list: List,
}

impl Review {
    pub fn new(request: &ReviewRequest) -> Self {
        let items = request.items.clone();
        let entries = items.len() + 1 + usize::from(request.declinable);
        Review {
            list: List::new(entries, items.len()),
            items,
            declinable: request.declinable,
        }
    }

    fn title_of(item: &ReviewItem) -> String {
        crate::ui::short_title(item.header.as_deref(), &item.prompt)
    }

    /// The entry that sends: "Accept" when there is nothing to review, else "Submit".
    fn send_label(&self) -> &'static str {
        if self.items.is_empty() {
            "Accept"
        } else {
            "Submit"
        }
    }
}

impl Widget for Review {
    type Reply = ReviewReply;

    fn handle(&mut self, key: Key, page: usize) -> Option<ReviewReply> {
        if self.list.navigate(&key, page) {
            return None;
        }
        let count = self.items.len() as u32;
        match key {
            Key::Enter => match self.list.current()? {
                i if i < self.items.len() => Some(ReviewReply::Edit(i as u32)),
                i if i == self.items.len() => Some(ReviewReply::Submit),
                _ => Some(ReviewReply::Decline),
            },
            Key::Char(d @ '1'..='9') => {
                let n = d as u32 - '1' as u32;
                (n < count).then_some(ReviewReply::Edit(n))
            }
            Key::Esc => Some(ReviewReply::Cancel),
            Key::Ctrl('x') if self.declinable => Some(ReviewReply::Decline),
            Key::BackTab | Key::Left if count > 0 => Some(ReviewReply::Edit(count - 1)),
            _ => None,
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let theme = ctx.theme;
        let mut body = Body::default();
        let titles: Vec<String> = self.items.iter().map(Self::title_of).collect();
        let number_width = self.items.len().to_string().len();
        let column = titles
            .iter()
            .map(|t| t.width())
            .max()
            .unwrap_or(0)
            .min(ctx.width / 3);
        let items = &self.items;
        let send = self.send_label();
        let rows = ctx.rows.saturating_sub(2);
        list_window(
            &mut self.list,
            rows,
            |_| 1,
            &mut body,
            theme,
            |index, here, body| {
                let pointer = if here { POINTER } else { NO_POINTER };
                let style = if here { theme.selected } else { theme.text };
                let mut line = Line::new().push(pointer, theme.cursor);
                if let Some(item) = items.get(index) {
                    let title = truncate(&titles[index], column);
                    let pad = " ".repeat(column - title.width());
                    let room = ctx.width.saturating_sub(2 + number_width + 2 + column + 2);
                    line = line
                        .push(format!("{:>number_width$}. ", index + 1), theme.muted)
                        .push(format!("{title}{pad}  "), theme.muted)
                        .push(truncate(&item.answer.replace('\n', " "), room), style);
                } else if index == items.len() {
                    line = line.push(send, if here { theme.done } else { theme.text });
                } else {
                    line = line.push("Decline", if here { theme.error } else { theme.text });
                }
                body.lines.push(line);
            },
        );
        body
    }

    fn hint(&self) -> String {
        let send = self.send_label();
        let mut hint = if self.items.is_empty() {
            format!("Enter on {send} accepts")
        } else {
            format!("Enter on {send} sends · a number or Enter on an answer changes it")
        };
        if self.declinable {
            hint.push_str(" · Ctrl-X decline");
        }
        hint.push_str(" · Esc cancel");
        hint
    }

    fn title(&self) -> &str {
        if self.items.is_empty() {
            "Accept this request?"
        } else {
            "Review your answers"
        }
    }

    /// The review prints the final answers itself when the request ends.
    fn summary(&self, _: &ReviewReply) -> Option<String> {
        None
    }

    fn nav(nav: Nav) -> Option<ReviewReply> {
        match nav {
            Nav::Cancel => Some(ReviewReply::Cancel),
            Nav::Decline => Some(ReviewReply::Decline),
            Nav::TimeUp => Some(ReviewReply::TimeUp),
            Nav::Back | Nav::Skip => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::terminal::testing::{play, screen};

    fn request(declinable: bool) -> ReviewRequest {
        let item = |prompt: &str, answer: &str| ReviewItem {
            header: None,
            prompt: prompt.into(),
            answer: answer.into(),
        };
        ReviewRequest {
            items: vec![item("Where?", "staging"), item("Migrate?", "yes")],
            context: None,
            declinable,
        }
    }

    #[test]
    fn the_cursor_starts_on_submit_and_an_answer_can_be_changed() {
        let mut review = Review::new(&request(false));
        assert_eq!(play(&mut review, [Key::Enter]), Some(ReviewReply::Submit));
        let mut review = Review::new(&request(false));
        assert_eq!(
            play(&mut review, [Key::Up, Key::Enter]),
            Some(ReviewReply::Edit(1))
        );
        let mut review = Review::new(&request(false));
        assert_eq!(play(&mut review, [Key::Esc]), Some(ReviewReply::Cancel));
    }

    #[test]
    fn a_declinable_request_offers_decline_after_submit() {
        let mut review = Review::new(&request(true));
        let shown = screen(None, &mut review, 60, 20);
        assert!(shown.iter().any(|l| l.contains("Decline")), "{shown:#?}");
        assert_eq!(
            play(&mut review, [Key::Down, Key::Enter]),
            Some(ReviewReply::Decline)
        );
    }
}
