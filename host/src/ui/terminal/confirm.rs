//! Yes or no: y and n answer at once; Left/Right choose, Enter confirms. The choices and the
//! answer left in the scrollback read `yes` and `no`, as the review and the result do.

use super::keys::Key;
use super::render::Line;
use super::widget::*;
use crate::ui::{ConfirmReply, ConfirmRequest, Nav};

pub struct Confirm {
    choice: Option<bool>,
    notice: Option<String>,
}

impl Confirm {
    pub fn new(request: &ConfirmRequest) -> Self {
        Confirm {
            choice: request.initial,
            notice: None,
        }
    }
}

impl Widget for Confirm {
    type Reply = ConfirmReply;

    fn handle(&mut self, key: Key, _page: usize) -> Option<ConfirmReply> {
        self.notice = None;
        match key {
            Key::Char('y' | 'Y') => Some(ConfirmReply::Answered(true)),
            Key::Char('n' | 'N') => Some(ConfirmReply::Answered(false)),
            Key::Left | Key::Right | Key::Tab | Key::Up | Key::Down => {
                self.choice = Some(!self.choice.unwrap_or(false));
                None
            }
            Key::Enter => match self.choice {
                Some(choice) => Some(ConfirmReply::Answered(choice)),
                None => {
                    self.notice = Some("Press y for yes or n for no.".into());
                    None
                }
            },
            Key::Esc => Some(ConfirmReply::Nav(Nav::Cancel)),
            Key::BackTab => Some(ConfirmReply::Nav(Nav::Back)),
            _ => None,
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let theme = ctx.theme;
        let style = |on: bool| {
            if on {
                super::theme::Style {
                    reverse: true,
                    ..theme.selected
                }
            } else {
                theme.text
            }
        };
        let line = Line::new()
            .push("  ", theme.text)
            .push(" yes ", style(self.choice == Some(true)))
            .push("  ", theme.text)
            .push(" no ", style(self.choice == Some(false)));
        Body {
            lines: vec![line],
            cursor: None,
        }
    }

    fn hint(&self) -> String {
        "y yes · n no · ←→ choose · Enter confirm · Shift-Tab back · Esc cancel".into()
    }

    fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    fn summary(&self, reply: &ConfirmReply) -> Option<String> {
        match reply {
            // In the words the review and the result use: `yes`, `no`.
            ConfirmReply::Answered(yes) => Some(if *yes { "yes" } else { "no" }.into()),
            ConfirmReply::Nav(_) => None,
        }
    }

    fn nav(nav: Nav) -> Option<ConfirmReply> {
        Some(ConfirmReply::Nav(nav))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::terminal::testing::{frame, play, screen};

    #[test]
    fn y_and_n_answer_at_once() {
        let mut confirm = Confirm::new(&ConfirmRequest { initial: None });
        assert_eq!(
            play(&mut confirm, [Key::Char('Y')]),
            Some(ConfirmReply::Answered(true))
        );
        let mut confirm = Confirm::new(&ConfirmRequest {
            initial: Some(true),
        });
        assert_eq!(
            play(&mut confirm, [Key::Char('n')]),
            Some(ConfirmReply::Answered(false))
        );
    }

    #[test]
    fn enter_takes_the_default_and_without_one_asks_for_a_choice() {
        let mut confirm = Confirm::new(&ConfirmRequest {
            initial: Some(false),
        });
        assert_eq!(
            play(&mut confirm, [Key::Enter]),
            Some(ConfirmReply::Answered(false))
        );
        let mut confirm = Confirm::new(&ConfirmRequest { initial: None });
        assert_eq!(play(&mut confirm, [Key::Enter]), None);
        let shown = screen(Some(&frame("Deploy?")), &mut confirm, 60, 20);
        assert!(
            shown.contains(&"✖ Press y for yes or n for no.".to_string()),
            "{shown:#?}"
        );
        assert_eq!(
            play(&mut confirm, [Key::Left, Key::Enter]),
            Some(ConfirmReply::Answered(true))
        );
    }
}
