//! Pick one: arrow keys (wrapping), Home/End, PgUp/PgDn, a digit jumps to that entry, `/`
//! filters, Enter picks; "Something else" opens an inline editor, Esc returns to the list.
//! Where offered, Tab adds a note to the pick; options with previews show the one under the
//! cursor in a box below the list.

use super::editor::Editor;
use super::keys::Key;
use super::list::List;
use super::note::{Note, NoteKey};
use super::preview::PreviewBox;
use super::render::{Line, truncate};
use super::widget::*;
use crate::ui::Options;
use crate::ui::{Nav, Pick, SelectReply, SelectRequest};
use unicode_width::UnicodeWidthStr;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Option(u32),
    Other,
    Discuss,
}

/// An entry of the list: an option, or one of the extra entries.
#[derive(Clone, Copy)]
pub(super) struct Entry<'a> {
    kind: Kind,
    label: &'a str,
    description: Option<&'a str>,
    /// Draw the "(recommended)" badge.
    badge: bool,
    preview: Option<&'a str>,
}

/// The entries: the request's options, then the extra entries where offered. Read from the
/// request as they are drawn, not copied into a list of their own: a list may hold thousands,
/// and its first frame shows a screenful.
struct Entries<'a> {
    options: &'a Options,
    extras: Vec<Entry<'a>>,
}

impl<'a> Entries<'a> {
    fn len(&self) -> usize {
        self.options.len() + self.extras.len()
    }

    fn get(&self, index: usize) -> Entry<'a> {
        match self.options.get(index) {
            Some(o) => Entry {
                kind: Kind::Option(index as u32),
                label: o.label,
                description: shown_description(o),
                badge: o.recommended,
                preview: o.preview,
            },
            None => self.extras[index - self.options.len()],
        }
    }

    fn iter(&self) -> impl Iterator<Item = Entry<'a>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

pub struct Select<'a> {
    entries: Entries<'a>,
    list: List,
    /// The "Something else" editor while it is open.
    editor: Option<Editor>,
    other_text: String,
    note: Note,
}

impl<'a> Select<'a> {
    pub fn new(request: &'a SelectRequest) -> Self {
        let extra = |kind, label: &'a Option<String>| {
            label.as_deref().map(|label| Entry {
                kind,
                label,
                description: None,
                badge: false,
                preview: None,
            })
        };
        let entries = Entries {
            options: &request.options,
            extras: [
                extra(Kind::Other, &request.other_label),
                extra(Kind::Discuss, &request.discuss_label),
            ]
            .into_iter()
            .flatten()
            .collect(),
        };
        let start = match (request.selected, &request.other_text) {
            (Some(i), _) => i as usize,
            (None, Some(_)) => entries
                .iter()
                .position(|e| e.kind == Kind::Other)
                .unwrap_or(0),
            // Without a default, the cursor starts on the agent's recommendation.
            (None, None) => request
                .options
                .iter()
                .position(|o| o.recommended)
                .unwrap_or(0),
        };
        Select {
            list: List::new(entries.len(), start),
            entries,
            editor: None,
            other_text: request.other_text.clone().unwrap_or_default(),
            note: Note::new(request.notes, request.note.as_deref()),
        }
    }

    /// The option under the cursor, when the cursor is on one (not on an extra entry).
    fn current_option(&self) -> Option<u32> {
        match self.entries.get(self.list.current()?).kind {
            Kind::Option(i) => Some(i),
            _ => None,
        }
    }

    fn pick(&self, index: u32) -> SelectReply {
        SelectReply::Picked(Pick {
            index,
            note: self.note.value(),
        })
    }
}

impl Widget for Select<'_> {
    type Reply = SelectReply;

    fn handle(&mut self, key: Key, page: usize) -> Option<SelectReply> {
        if let Some(editor) = &mut self.editor {
            match key {
                Key::Enter => return Some(SelectReply::Other(editor.text().to_string())),
                Key::Esc => {
                    self.other_text = editor.text().to_string();
                    self.editor = None;
                }
                key => {
                    editor.handle(&key);
                }
            }
            return None;
        }
        if self.note.is_editing() {
            return match (self.note.handle(key), self.current_option()) {
                (NoteKey::Submit, Some(i)) => Some(self.pick(i)),
                _ => None,
            };
        }
        let options = self.entries.options;
        if self.list.filter_key(&key, |i| filtered_on(options, i)) || self.list.navigate(&key, page)
        {
            return None;
        }
        match key {
            Key::Tab if self.current_option().is_some() => {
                self.note.open();
                None
            }
            Key::Enter => match self.entries.get(self.list.current()?).kind {
                Kind::Option(i) => Some(self.pick(i)),
                Kind::Discuss => Some(SelectReply::Discuss),
                Kind::Other => {
                    self.editor = Some(Editor::new(&self.other_text, false));
                    None
                }
            },
            Key::Char(d @ '1'..='9') => {
                self.list.select(d as usize - '1' as usize);
                None
            }
            Key::Esc => Some(SelectReply::Nav(Nav::Cancel)),
            Key::BackTab | Key::Left => Some(SelectReply::Nav(Nav::Back)),
            _ => None,
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let mut body = Body::default();
        let theme = ctx.theme;
        filter_line(self.list.filter.as_ref(), &mut body, theme);
        let entries = &self.entries;
        let is_option = |i: usize| matches!(entries.get(i).kind, Kind::Option(_));
        no_match_line(&self.list, is_option, &mut body, theme);
        let number_width = self.entries.len().to_string().len();
        // Only options have previews.
        let previews = PreviewBox::for_previews(entries.options.previews(), ctx.width);
        let rows = ctx
            .rows
            .saturating_sub(body.lines.len() + 2 + self.note.rows());
        let preview_rows = previews.as_ref().map_or(0, |p| p.rows(rows));
        let rows = rows.saturating_sub(preview_rows);
        let height = |i: usize| 1 + usize::from(entries.get(i).description.is_some());
        list_window(
            &mut self.list,
            rows,
            height,
            &mut body,
            theme,
            |index, here, body| {
                let entry = entries.get(index);
                let (pointer, style) = if here {
                    (POINTER, theme.selected)
                } else {
                    (NO_POINTER, theme.text)
                };
                let number = format!("{:>number_width$}. ", index + 1);
                let mut line = Line::new()
                    .push(pointer, theme.cursor)
                    .push(number.clone(), theme.muted);
                let room = ctx.width.saturating_sub(2 + number.len());
                match (&self.editor, entry.kind) {
                    (Some(editor), Kind::Other) if here => {
                        let label = format!("{}: ", entry.label);
                        let (lines, (_, column)) = editor.view(false);
                        body.cursor = Some((
                            body.lines.len(),
                            2 + number.len() + label.chars().count() + column,
                        ));
                        line = line
                            .push(label, theme.muted)
                            .push(lines.concat(), theme.text);
                    }
                    _ => {
                        // The badge gives way before the label does.
                        let badge = " (recommended)";
                        let show_badge = entry.badge && entry.label.width() + badge.len() <= room;
                        line = line.push(truncate(entry.label, room), style);
                        if show_badge {
                            line = line.push(badge, theme.badge);
                        }
                        if entry.kind == Kind::Other && !self.other_text.is_empty() {
                            line = line.push(format!(": {}", self.other_text), theme.muted);
                        }
                    }
                }
                body.lines.push(line);
                if let Some(description) = entry.description {
                    let indent = 2 + number.len();
                    body.lines
                        .push(description_line(description, indent, room, theme));
                }
            },
        );
        if let Some(previews) = previews {
            let shown = self.list.current().and_then(|i| entries.get(i).preview);
            body.lines.extend(previews.draw(shown, preview_rows, theme));
        }
        self.note.draw(&mut body, ctx.width, theme);
        body
    }

    fn hint(&self) -> String {
        let note = self.note.hint();
        if self.editor.is_some() {
            "Enter submit · Esc back to the list".into()
        } else if self.note.is_editing() {
            note.unwrap_or_default().into()
        } else if self.list.filter.is_some() {
            "type to filter · ↑↓ move · Enter select · Esc clear filter".into()
        } else {
            let note = note.map(|n| format!(" · {n}")).unwrap_or_default();
            format!("↑↓ move · Enter select{note} · / filter · Shift-Tab back · Esc cancel")
        }
    }

    fn summary(&self, reply: &SelectReply) -> Option<String> {
        match reply {
            SelectReply::Picked(pick) => self
                .entries
                .options
                .get(pick.index as usize)
                .map(|o| Note::summary(o.label.to_string(), pick.note.as_ref())),
            SelectReply::Other(text) => Some(text.clone()),
            SelectReply::Discuss => self
                .entries
                .iter()
                .find(|e| e.kind == Kind::Discuss)
                .map(|e| e.label.to_string()),
            SelectReply::Nav(_) => None,
        }
    }

    fn nav(nav: Nav) -> Option<SelectReply> {
        Some(SelectReply::Nav(nav))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::ChoiceRef;
    use crate::ui::terminal::testing::{frame, options, play, screen, typed};

    fn request(labels: &[&str]) -> SelectRequest {
        SelectRequest {
            options: options(labels),
            selected: None,
            other_label: Some("Something else".into()),
            other_text: None,
            discuss_label: None,
            notes: false,
            note: None,
        }
    }

    #[test]
    fn arrows_wrap_and_enter_picks_the_entry_under_the_cursor() {
        let asked = request(&["dev", "staging", "prod"]);
        let mut select = Select::new(&asked);
        assert_eq!(
            play(&mut select, [Key::Down, Key::Down, Key::Enter]),
            Some(SelectReply::picked(2))
        );
        let asked = request(&["dev", "staging", "prod"]);
        let mut select = Select::new(&asked);
        // Up from the first entry wraps to the last option before the extra entry.
        assert_eq!(
            play(&mut select, [Key::Up, Key::Up, Key::Enter]),
            Some(SelectReply::picked(2))
        );
    }

    #[test]
    fn a_digit_jumps_and_the_cursor_starts_on_the_recommendation() {
        let mut req = request(&["dev", "staging", "prod"]);
        req.options = req
            .options
            .iter()
            .map(|o| ChoiceRef {
                recommended: o.label == "staging",
                ..o
            })
            .collect();
        let mut select = Select::new(&req);
        let shown = screen(Some(&frame("Where?")), &mut select, 60, 20);
        assert_eq!(shown[1], "  1. dev");
        assert_eq!(shown[2], "❯ 2. staging (recommended)");
        assert_eq!(
            play(&mut select, [Key::Char('3'), Key::Enter]),
            Some(SelectReply::picked(2))
        );
    }

    #[test]
    fn something_else_opens_an_editor_and_esc_keeps_what_was_typed() {
        let asked = request(&["dev"]);
        let mut select = Select::new(&asked);
        let mut keys = vec![Key::Down, Key::Enter];
        keys.extend(typed("qa"));
        keys.push(Key::Esc);
        assert_eq!(play(&mut select, keys), None, "Esc leaves the editor only");
        let shown = screen(Some(&frame("Where?")), &mut select, 60, 20);
        assert_eq!(shown[2], "❯ 2. Something else: qa");
        let mut keys = vec![Key::Enter];
        keys.extend(typed("-east"));
        keys.push(Key::Enter);
        assert_eq!(
            play(&mut select, keys),
            Some(SelectReply::Other("qa-east".into()))
        );
    }

    #[test]
    fn the_filter_narrows_the_options_and_says_when_none_match() {
        let asked = request(&["alpha", "beta", "gamma"]);
        let mut select = Select::new(&asked);
        let mut keys = vec![Key::Char('/')];
        keys.extend(typed("mm"));
        play(&mut select, keys);
        let shown = screen(Some(&frame("Which?")), &mut select, 60, 20);
        assert_eq!(shown[1], "/ mm");
        assert_eq!(shown[2], "❯ 3. gamma");
        assert_eq!(shown[3], "  4. Something else", "extra entries stay");
        play(&mut select, typed("x"));
        let shown = screen(Some(&frame("Which?")), &mut select, 60, 20);
        assert!(shown.contains(&"  No option matches the filter.".to_string()));
    }

    #[test]
    fn esc_cancels_and_shift_tab_goes_back() {
        let asked = request(&["a"]);
        let mut select = Select::new(&asked);
        assert_eq!(
            play(&mut select, [Key::Esc]),
            Some(SelectReply::Nav(Nav::Cancel))
        );
        let asked = request(&["a"]);
        let mut select = Select::new(&asked);
        assert_eq!(
            play(&mut select, [Key::BackTab]),
            Some(SelectReply::Nav(Nav::Back))
        );
    }

    #[test]
    fn tab_adds_a_note_to_the_pick() {
        let mut req = request(&["dev", "prod"]);
        req.notes = true;
        let mut select = Select::new(&req);
        let mut keys = vec![Key::Down, Key::Tab];
        keys.extend(typed("after 6pm"));
        keys.push(Key::Enter);
        let reply = play(&mut select, keys);
        assert_eq!(
            reply,
            Some(SelectReply::Picked(Pick {
                index: 1,
                note: Some("after 6pm".into())
            }))
        );
        assert_eq!(
            select.summary(&reply.unwrap()).as_deref(),
            Some("prod (note: after 6pm)")
        );
    }

    #[test]
    fn a_long_list_draws_only_the_rows_that_fit() {
        let labels: Vec<String> = (1..=10_000).map(|i| format!("option {i}")).collect();
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let asked = request(&labels);
        let mut select = Select::new(&asked);
        play(&mut select, [Key::End]);
        let shown = screen(Some(&frame("Which?")), &mut select, 60, 12);
        assert!(shown.len() <= 12, "{shown:#?}");
        assert!(shown.iter().any(|l| l.contains("more")), "{shown:#?}");
        assert!(
            shown
                .iter()
                .any(|l| l.starts_with("❯") && l.contains("Something else")),
            "{shown:#?}"
        );
    }
}
