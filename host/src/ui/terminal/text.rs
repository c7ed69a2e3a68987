//! Free text: a line editor; multi-line questions take Alt-Enter or Ctrl-J for a new line.

use super::editor::Editor;
use super::keys::Key;
use super::render::Line;
use super::widget::*;
use crate::ui::{Nav, TextReply, TextRequest};

pub struct Text {
    editor: Editor,
    request: TextRequest,
    /// The length limits in words (the frame's hint), shown under the editor.
    limits: Option<String>,
}

impl Text {
    /// The widget for `request`, with `limits` (the frame's hint) shown under the editor.
    pub fn new(request: &TextRequest, limits: Option<&str>) -> Self {
        Text {
            editor: Editor::new(request.initial.as_deref().unwrap_or(""), request.multiline),
            request: request.clone(),
            limits: limits.map(str::to_string),
        }
    }
}

impl Widget for Text {
    type Reply = TextReply;

    fn handle(&mut self, key: Key, _page: usize) -> Option<TextReply> {
        match key {
            Key::Enter => Some(TextReply::Submitted(self.editor.text().to_string())),
            Key::Esc => Some(TextReply::Nav(Nav::Cancel)),
            Key::BackTab => Some(TextReply::Nav(Nav::Back)),
            key => {
                self.editor.handle(&key);
                None
            }
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let theme = ctx.theme;
        let mut body = Body::default();
        let (lines, (line, column)) = self.editor.view(self.request.secret);
        for (i, text) in lines.iter().enumerate() {
            let lead = if i == 0 { "› " } else { "  " };
            body.lines.push(
                Line::new()
                    .push(lead, theme.cursor)
                    .push(text.clone(), theme.text),
            );
        }
        if self.editor.is_empty()
            && let Some(placeholder) = &self.request.placeholder
        {
            body.lines[0] = Line::new()
                .push("› ", theme.cursor)
                .push(placeholder.clone(), theme.muted);
        }
        body.cursor = Some((line, 2 + column));
        // What was typed against the limit, and the limits in words: "  7/20 · 3 to 20 characters".
        let count = self
            .request
            .max_length
            .map(|max| format!("{}/{max}", self.editor.text().chars().count()));
        let below: Vec<&str> = count
            .iter()
            .chain(&self.limits)
            .map(String::as_str)
            .collect();
        if !below.is_empty() {
            body.lines
                .push(Line::new().push(format!("  {}", below.join(" · ")), theme.muted));
        }
        body
    }

    fn hint(&self) -> String {
        if self.request.multiline {
            "Enter submit · Alt-Enter or Ctrl-J new line · Shift-Tab back · Esc cancel".into()
        } else {
            "Enter submit · Shift-Tab back · Esc cancel".into()
        }
    }

    fn summary(&self, reply: &TextReply) -> Option<String> {
        let TextReply::Submitted(text) = reply else {
            return None;
        };
        Some(if self.request.secret {
            "••••••".into()
        } else if text.contains('\n') {
            format!("{} …", text.lines().next().unwrap_or(""))
        } else {
            text.clone()
        })
    }

    fn nav(nav: Nav) -> Option<TextReply> {
        Some(TextReply::Nav(nav))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::terminal::testing::{frame, play, screen, typed};

    fn request() -> TextRequest {
        TextRequest {
            multiline: false,
            placeholder: Some("e.g. Ada".into()),
            initial: None,
            secret: false,
            min_length: None,
            max_length: None,
        }
    }

    #[test]
    fn typing_editing_and_enter_submit_the_text() {
        let mut text = Text::new(&request(), None);
        let mut keys = typed("Adx");
        keys.extend([Key::Backspace, Key::Char('a'), Key::Enter]);
        assert_eq!(
            play(&mut text, keys),
            Some(TextReply::Submitted("Ada".into()))
        );
    }

    #[test]
    fn the_placeholder_shows_only_while_empty_and_the_limits_below() {
        let mut text = Text::new(&request(), Some("3 to 20 characters"));
        let shown = screen(Some(&frame("Name?")), &mut text, 60, 20);
        assert_eq!(shown[1], "› e.g. Ada");
        assert!(
            shown.iter().any(|l| l.contains("3 to 20 characters")),
            "{shown:#?}"
        );
        play(&mut text, typed("B"));
        let shown = screen(Some(&frame("Name?")), &mut text, 60, 20);
        assert_eq!(shown[1], "› B");
    }

    #[test]
    fn a_secret_is_never_drawn() {
        let mut text = Text::new(
            &TextRequest {
                secret: true,
                ..request()
            },
            None,
        );
        play(&mut text, typed("hunter2"));
        let shown = screen(Some(&frame("Token?")), &mut text, 60, 20);
        assert!(!shown.concat().contains("hunter2"), "{shown:#?}");
        assert_eq!(
            play(&mut text, [Key::Enter]),
            Some(TextReply::Submitted("hunter2".into()))
        );
    }

    #[test]
    fn a_multiline_answer_takes_new_lines_and_enter_sends() {
        let mut text = Text::new(
            &TextRequest {
                multiline: true,
                ..request()
            },
            None,
        );
        let mut keys = typed("one");
        keys.push(Key::NewLine);
        keys.extend(typed("two"));
        keys.push(Key::Enter);
        assert_eq!(
            play(&mut text, keys),
            Some(TextReply::Submitted("one\ntwo".into()))
        );
    }
}
