//! Pick several: Space toggles, `a` toggles all, Enter confirms; limits are enforced in place.
//! "Something else" opens an inline editor; its text is one more pick. Where offered, Tab adds
//! a note to the picks; options with previews show the one under the cursor below the list.

use super::editor::Editor;
use super::keys::Key;
use super::list::List;
use super::note::{Note, NoteKey};
use super::preview::PreviewBox;
use super::render::{Line, truncate};
use super::widget::*;
use crate::ui::Options;
use crate::ui::{MultiPick, MultiSelectReply, MultiSelectRequest, Nav};

/// The entries borrow the request's text: a list may hold thousands.
pub struct MultiSelect<'a> {
    options: &'a Options,
    ticked: Vec<bool>,
    /// The label of the free-text entry (the last entry), when offered.
    other_label: Option<&'a str>,
    other_text: String,
    editor: Option<Editor>,
    list: List,
    min: Option<u32>,
    max: Option<u32>,
    /// The limits in words (the frame's hint), shown beside "Done".
    limits: Option<String>,
    notice: Option<String>,
    note: Note,
}

impl<'a> MultiSelect<'a> {
    /// The widget for `request`, with `limits` (the frame's hint) shown beside "Done".
    pub fn new(request: &'a MultiSelectRequest, limits: Option<&str>) -> Self {
        let count = request.options.len();
        let mut ticked = vec![false; count];
        for &i in &request.selected {
            if let Some(t) = ticked.get_mut(i as usize) {
                *t = true;
            }
        }
        let entries = count + usize::from(request.other_label.is_some());
        MultiSelect {
            options: &request.options,
            ticked,
            other_label: request.other_label.as_deref(),
            other_text: request.other_text.clone().unwrap_or_default(),
            editor: None,
            list: List::new(entries, 0),
            min: request.min_picks,
            max: request.max_picks,
            limits: limits.map(str::to_string),
            notice: None,
            note: Note::new(request.notes, request.note.as_deref()),
        }
    }

    fn count(&self) -> u32 {
        self.ticked.iter().filter(|t| **t).count() as u32
            + u32::from(!self.other_text.trim().is_empty())
    }

    fn is_other(&self, index: usize) -> bool {
        index == self.options.len()
    }

    fn reply(&self) -> MultiSelectReply {
        let picked = (0..self.ticked.len())
            .filter(|&i| self.ticked[i])
            .map(|i| i as u32)
            .collect();
        let other = Some(self.other_text.trim().to_string()).filter(|t| !t.is_empty());
        MultiSelectReply::Picked(MultiPick {
            picked,
            other,
            note: self.note.value(),
        })
    }

    /// Enter: the picks, or the limit they miss, shown in place.
    fn confirm(&mut self) -> Option<MultiSelectReply> {
        match self.limit_problem() {
            Some(problem) => {
                self.notice = Some(problem);
                None
            }
            None => Some(self.reply()),
        }
    }

    fn toggle(&mut self, index: usize) {
        if self.is_other(index) {
            if self.other_text.is_empty() {
                self.editor = Some(Editor::new("", false));
            } else {
                self.other_text.clear();
            }
        } else {
            self.ticked[index] = !self.ticked[index];
        }
    }

    /// Why the picks cannot be confirmed, if they cannot.
    fn limit_problem(&self) -> Option<String> {
        let count = self.count();
        let plural = |n: u32| if n == 1 { "option" } else { "options" };
        match (self.min, self.max) {
            (Some(min), _) if count < min => Some(format!(
                "Pick at least {min} {} ({count} picked).",
                plural(min)
            )),
            (_, Some(max)) if count > max => Some(format!(
                "Pick at most {max} {} ({count} picked).",
                plural(max)
            )),
            _ => None,
        }
    }
}

impl Widget for MultiSelect<'_> {
    type Reply = MultiSelectReply;

    fn handle(&mut self, key: Key, page: usize) -> Option<MultiSelectReply> {
        self.notice = None;
        if let Some(editor) = &mut self.editor {
            match key {
                Key::Enter => {
                    self.other_text = editor.text().trim().to_string();
                    self.editor = None;
                }
                Key::Esc => self.editor = None,
                key => {
                    editor.handle(&key);
                }
            }
            return None;
        }
        if self.note.is_editing() {
            return match self.note.handle(key) {
                NoteKey::Submit => self.confirm(),
                NoteKey::Handled => None,
            };
        }
        // Space toggles even while filtering.
        let options = self.options;
        if key != Key::Char(' ') && self.list.filter_key(&key, |i| filtered_on(options, i))
            || self.list.navigate(&key, page)
        {
            return None;
        }
        match key {
            Key::Char(' ') => {
                if let Some(index) = self.list.current() {
                    self.toggle(index);
                }
                None
            }
            Key::Char('a') => {
                let all = self.ticked.iter().all(|t| *t);
                self.ticked.iter_mut().for_each(|t| *t = !all);
                None
            }
            Key::Char(d @ '1'..='9') => {
                self.list.select(d as usize - '1' as usize);
                None
            }
            Key::Tab => {
                self.note.open();
                None
            }
            Key::Enter => self.confirm(),
            Key::Esc => Some(MultiSelectReply::Nav(Nav::Cancel)),
            Key::BackTab | Key::Left => Some(MultiSelectReply::Nav(Nav::Back)),
            _ => None,
        }
    }

    fn body(&mut self, ctx: &Ctx) -> Body {
        let theme = ctx.theme;
        let mut body = Body::default();
        filter_line(self.list.filter.as_ref(), &mut body, theme);
        let options = self.options;
        no_match_line(&self.list, |i| i < options.len(), &mut body, theme);
        let previews = PreviewBox::for_previews(options.previews(), ctx.width);
        let rows = ctx
            .rows
            .saturating_sub(body.lines.len() + 3 + self.note.rows());
        let preview_rows = previews.as_ref().map_or(0, |p| p.rows(rows));
        let rows = rows.saturating_sub(preview_rows);
        let description = |i: usize| options.get(i).and_then(shown_description);
        let height = |i: usize| 1 + usize::from(description(i).is_some());
        let (ticked, other_text) = (&self.ticked, &self.other_text);
        list_window(
            &mut self.list,
            rows,
            height,
            &mut body,
            theme,
            |index, here, body| {
                let pointer = if here { POINTER } else { NO_POINTER };
                // The entry after the options is the free-text one.
                let other = index == options.len();
                let is_ticked = if other {
                    !other_text.is_empty()
                } else {
                    ticked[index]
                };
                let tick = if is_ticked { "[x] " } else { "[ ] " };
                let style = if here || is_ticked {
                    theme.selected
                } else {
                    theme.text
                };
                let mut line = Line::new().push(pointer, theme.cursor).push(tick, style);
                let room = ctx.width.saturating_sub(6);
                if other {
                    let label = self.other_label.unwrap_or_default();
                    match &self.editor {
                        Some(editor) => {
                            let (lines, (_, column)) = editor.view(false);
                            body.cursor =
                                Some((body.lines.len(), 6 + label.chars().count() + 2 + column));
                            line = line
                                .push(format!("{label}: "), theme.muted)
                                .push(lines.concat(), theme.text);
                        }
                        None if !other_text.is_empty() => {
                            line =
                                line.push(truncate(&format!("{label}: {other_text}"), room), style);
                        }
                        None => line = line.push(truncate(label, room), style),
                    }
                } else {
                    let label = options.get(index).map_or("", |o| o.label);
                    line = line.push(truncate(label, room), style);
                }
                body.lines.push(line);
                if let Some(description) = description(index) {
                    body.lines
                        .push(description_line(description, 6, room, theme));
                }
            },
        );
        let count = self.count();
        let limits = self
            .limits
            .as_ref()
            .map_or(String::new(), |limits| format!(" · {limits}"));
        let done_style = if self.limit_problem().is_none() {
            theme.done
        } else {
            theme.muted
        };
        if let Some(previews) = previews {
            let shown = self
                .list
                .current()
                .and_then(|i| options.get(i))
                .and_then(|o| o.preview);
            body.lines.extend(previews.draw(shown, preview_rows, theme));
        }
        body.lines
            .push(Line::new().push(format!("  Done ({count} selected){limits}"), done_style));
        self.note.draw(&mut body, ctx.width, theme);
        body
    }

    fn hint(&self) -> String {
        let note = self.note.hint();
        if self.editor.is_some() {
            "Enter keep this answer · Esc back to the list".into()
        } else if self.note.is_editing() {
            note.unwrap_or_default().into()
        } else {
            let note = note.map(|n| format!(" · {n}")).unwrap_or_default();
            format!(
                "↑↓ move · Space toggle · a all · Enter done{note} · / filter · Shift-Tab back · \
                 Esc cancel"
            )
        }
    }

    fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    fn summary(&self, reply: &MultiSelectReply) -> Option<String> {
        let MultiSelectReply::Picked(pick) = reply else {
            return None;
        };
        let mut words: Vec<String> = pick
            .picked
            .iter()
            .filter_map(|&i| self.options.get(i as usize))
            .map(|o| o.label.to_string())
            .collect();
        words.extend(pick.other.clone());
        let answer = if words.is_empty() {
            "(none)".into()
        } else {
            words.join(", ")
        };
        Some(Note::summary(answer, pick.note.as_ref()))
    }

    fn nav(nav: Nav) -> Option<MultiSelectReply> {
        Some(MultiSelectReply::Nav(nav))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::terminal::testing::{frame, options, play, screen, typed};

    fn request(labels: &[&str], min: Option<u32>, max: Option<u32>) -> MultiSelectRequest {
        MultiSelectRequest {
            options: options(labels),
            selected: Vec::new(),
            other_label: Some("Something else".into()),
            other_text: None,
            min_picks: min,
            max_picks: max,
            notes: false,
            note: None,
        }
    }

    fn picked(picked: &[u32], other: Option<&str>) -> Option<MultiSelectReply> {
        Some(MultiSelectReply::Picked(MultiPick {
            picked: picked.to_vec(),
            other: other.map(str::to_string),
            note: None,
        }))
    }

    #[test]
    fn space_toggles_and_enter_sends_the_ticks_in_option_order() {
        let asked = request(&["lint", "test", "build"], None, None);
        let mut multi = MultiSelect::new(&asked, None);
        let keys = [
            Key::Down,
            Key::Down,
            Key::Char(' '),
            Key::Up,
            Key::Up,
            Key::Char(' '),
            Key::Enter,
        ];
        assert_eq!(play(&mut multi, keys), picked(&[0, 2], None));
    }

    #[test]
    fn a_missed_limit_is_said_in_place_until_the_next_key() {
        let asked = request(&["a", "b", "c"], Some(2), Some(2));
        let mut multi = MultiSelect::new(&asked, Some("pick 2"));
        assert_eq!(play(&mut multi, [Key::Char(' '), Key::Enter]), None);
        let shown = screen(Some(&frame("Which?")), &mut multi, 60, 20);
        assert!(
            shown.contains(&"✖ Pick at least 2 options (1 picked).".to_string()),
            "{shown:#?}"
        );
        assert_eq!(
            play(&mut multi, [Key::Char('a'), Key::Enter]),
            None,
            "all three is one too many"
        );
        assert_eq!(multi.notice(), Some("Pick at most 2 options (3 picked)."));
        assert_eq!(
            play(&mut multi, [Key::Char(' '), Key::Enter]),
            picked(&[1, 2], None)
        );
    }

    #[test]
    fn something_else_is_typed_inline_and_counts_as_a_pick() {
        let asked = request(&["a", "b"], Some(1), None);
        let mut multi = MultiSelect::new(&asked, None);
        let mut keys = vec![Key::Char('3'), Key::Char(' ')];
        keys.extend(typed("docs"));
        keys.extend([Key::Enter, Key::Enter]);
        assert_eq!(play(&mut multi, keys), picked(&[], Some("docs")));
    }

    #[test]
    fn space_toggles_while_filtering() {
        let asked = request(&["alpha", "beta"], None, None);
        let mut multi = MultiSelect::new(&asked, None);
        let mut keys = vec![Key::Char('/')];
        keys.extend(typed("bet"));
        keys.extend([Key::Char(' '), Key::Enter]);
        assert_eq!(play(&mut multi, keys), picked(&[1], None));
    }
}
