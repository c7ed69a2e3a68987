//! The review of a batch: every answer listed; Enter submits, a number or the arrows and Enter
//! pick one to change, Esc cancels.

use unicode_width::UnicodeWidthStr;

use super::keys::Key;
use super::list::List;
use super::render::{Line, truncate};
use super::widget::*;
use crate::ui::{Nav, ReviewItem, ReviewReply};

pub struct Review {
    items: Vec<ReviewItem>,
    /// Entries: the items, then "Submit".
    list: List,
}

impl Review {
    pub fn new(items: &[ReviewItem]) -> Self {
        Review {
            items: items.to_vec(),
            list: List::new(items.len() + 1, items.len()),
        }
    }

    fn title(item: &ReviewItem) -> String {
        item.header
            .clone()
            .unwrap_or_else(|| item.prompt.lines().next().unwrap_or("").to_string())
    }
}

impl Widget for Review {
    type Reply = ReviewReply;

    fn handle(&mut self, key: Key, page: usize) -> Option<ReviewReply> {
        if self.list.navigate(&key, page) {
            return None;
        }
        let last = self.items.len() as u32 - 1;
        match key {
            Key::Enter => match self.list.current()? {
                i if i < self.items.len() => Some(ReviewReply::Edit(i as u32)),
                _ => Some(ReviewReply::Submit),
            },
            Key::Char(d @ '1'..='9') => {
                let n = d as u32 - '1' as u32;
                (n <= last).then_some(ReviewReply::Edit(n))
            }
            Key::Esc => Some(ReviewReply::Cancel),
            Key::BackTab | Key::Left => Some(ReviewReply::Edit(last)),
            _ => None,
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let theme = ctx.theme;
        let mut body = Body::default();
        let titles: Vec<String> = self.items.iter().map(Self::title).collect();
        let number_width = self.items.len().to_string().len();
        let column = titles
            .iter()
            .map(|t| t.width())
            .max()
            .unwrap_or(0)
            .min(ctx.width / 3);
        let items = &self.items;
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
                } else {
                    line = line.push("Submit", if here { theme.done } else { theme.text });
                }
                body.lines.push(line);
            },
        );
        body
    }

    fn hint(&self) -> String {
        "Enter on Submit sends · a number or Enter on an answer changes it · Esc cancel".into()
    }

    /// The review prints the final answers itself when the request ends.
    fn summary(&self, _: &ReviewReply) -> Option<String> {
        None
    }

    fn nav(nav: Nav) -> Option<ReviewReply> {
        (nav == Nav::Cancel).then_some(ReviewReply::Cancel)
    }
}
