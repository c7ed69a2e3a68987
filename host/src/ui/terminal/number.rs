//! A number: typed, with the accepted range shown; Up/Down step by one within the range.

use super::editor::Editor;
use super::keys::Key;
use super::render::Line;
use super::widget::*;
use crate::ui::{Nav, NumberReply, NumberRequest};

pub struct Number {
    editor: Editor,
    request: NumberRequest,
    /// The accepted range in words, shown after what is typed.
    range: Option<String>,
}

impl Number {
    /// The widget for `request`, with `range` (the frame's hint) shown beside it.
    pub fn new(request: &NumberRequest, range: Option<&str>) -> Self {
        let initial = request.initial.map(|v| v.to_string()).unwrap_or_default();
        Number {
            editor: Editor::new(&initial, false),
            request: *request,
            range: range.map(str::to_string),
        }
    }

    fn step(&mut self, by: f64) {
        let current = self
            .editor
            .text()
            .trim()
            .replace('_', "")
            .parse::<f64>()
            .ok();
        let next = match current {
            Some(value) => value + by,
            None => self.request.min.unwrap_or(0.0),
        };
        let next = next
            .max(self.request.min.unwrap_or(f64::MIN))
            .min(self.request.max.unwrap_or(f64::MAX));
        self.editor = Editor::new(&next.to_string(), false);
    }
}

impl Widget for Number {
    type Reply = NumberReply;

    fn handle(&mut self, key: Key, _page: usize) -> Option<NumberReply> {
        match key {
            Key::Enter => Some(NumberReply::Entered(self.editor.text().to_string())),
            Key::Esc => Some(NumberReply::Nav(Nav::Cancel)),
            Key::BackTab => Some(NumberReply::Nav(Nav::Back)),
            Key::Up => {
                self.step(1.0);
                None
            }
            Key::Down => {
                self.step(-1.0);
                None
            }
            key => {
                self.editor.handle(&key);
                None
            }
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let theme = ctx.theme;
        let (lines, (_, column)) = self.editor.view(false);
        let mut line = Line::new()
            .push("› ", theme.cursor)
            .push(lines.concat(), theme.text);
        if let Some(range) = &self.range {
            line = line.push(format!("  ({range})"), theme.muted);
        }
        Body {
            lines: vec![line],
            cursor: Some((0, 2 + column)),
        }
    }

    fn hint(&self) -> String {
        "Enter submit · ↑↓ step · Shift-Tab back · Esc cancel".into()
    }

    fn summary(&self, reply: &NumberReply) -> Option<String> {
        match reply {
            NumberReply::Entered(text) => Some(text.trim().to_string()),
            NumberReply::Nav(_) => None,
        }
    }

    fn nav(nav: Nav) -> Option<NumberReply> {
        Some(NumberReply::Nav(nav))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::terminal::testing::{play, typed};

    fn request(initial: Option<f64>, min: Option<f64>, max: Option<f64>) -> NumberRequest {
        NumberRequest {
            initial,
            min,
            max,
            exclusive_min: None,
            exclusive_max: None,
            integer: true,
        }
    }

    #[test]
    fn the_text_typed_is_the_reply_for_the_plugin_to_judge() {
        let mut number = Number::new(&request(None, None, None), None);
        let mut keys = typed("1_000x");
        keys.push(Key::Enter);
        assert_eq!(
            play(&mut number, keys),
            Some(NumberReply::Entered("1_000x".into()))
        );
    }

    #[test]
    fn arrows_step_within_the_range() {
        let mut number = Number::new(&request(Some(9.0), Some(1.0), Some(10.0)), None);
        let keys = [Key::Up, Key::Up, Key::Enter];
        assert_eq!(
            play(&mut number, keys),
            Some(NumberReply::Entered("10".into()))
        );
        let mut number = Number::new(&request(None, Some(3.0), None), None);
        assert_eq!(
            play(&mut number, [Key::Down, Key::Enter]),
            Some(NumberReply::Entered("3".into())),
            "from nothing, a step starts at the minimum"
        );
    }
}
