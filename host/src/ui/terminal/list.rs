//! A scrolling list with a cursor and a filter: what select, multi-select and review share.

use super::keys::Key;

/// Which entries are visible and which one is under the cursor.
#[derive(Clone, Debug)]
pub struct List {
    /// How many entries the caller has.
    count: usize,
    /// Indices (into the caller's entries) that pass the filter, in order.
    visible: Vec<usize>,
    /// Position in `visible` of the entry under the cursor.
    cursor: usize,
    /// Position in `visible` of the first entry drawn.
    offset: usize,
    /// The filter text, while filtering.
    pub filter: Option<String>,
    /// Each entry's text to filter on in lower case (`None` for entries always shown), made on
    /// the first `/`: most lists are never filtered, and a long one would pay for it before its
    /// first frame.
    lowered: Vec<Option<String>>,
}

/// Moving the cursor wraps at the ends, as in most terminal pickers.
impl List {
    pub fn new(count: usize, start: usize) -> Self {
        List {
            count,
            visible: (0..count).collect(),
            cursor: start.min(count.saturating_sub(1)),
            offset: 0,
            filter: None,
            lowered: Vec::new(),
        }
    }

    /// Handles `/` and, while filtering, typing, Backspace and Esc; false for other keys.
    /// `filtered_on(i)` is entry `i`'s text to filter on; entries without one are always shown,
    /// and a list with none is not filtered.
    pub fn filter_key<'t>(
        &mut self,
        key: &Key,
        filtered_on: impl Fn(usize) -> Option<&'t str>,
    ) -> bool {
        let Some(filter) = &mut self.filter else {
            if *key == Key::Char('/') && (0..self.count).any(|i| filtered_on(i).is_some()) {
                self.filter = Some(String::new());
                if self.lowered.is_empty() {
                    // Once, not per keystroke.
                    self.lowered = (0..self.count)
                        .map(|i| filtered_on(i).map(str::to_lowercase))
                        .collect();
                }
                return true;
            }
            return false;
        };
        match key {
            Key::Char(c) => filter.push(*c),
            Key::Backspace => {
                filter.pop();
            }
            Key::Esc => self.filter = None,
            _ => return false,
        }
        let filter = self.filter.clone().unwrap_or_default().to_lowercase();
        let lowered = std::mem::take(&mut self.lowered);
        self.refilter(lowered.len(), |i| {
            lowered[i]
                .as_ref()
                .is_none_or(|text| text.contains(&filter))
        });
        self.lowered = lowered;
        true
    }

    /// The entry under the cursor (an index into the caller's entries), if any is visible.
    pub fn current(&self) -> Option<usize> {
        self.visible.get(self.cursor).copied()
    }

    pub fn visible(&self) -> &[usize] {
        &self.visible
    }

    /// Puts the cursor on entry `index`, if visible.
    pub fn select(&mut self, index: usize) {
        if let Some(at) = self.visible.iter().position(|&i| i == index) {
            self.cursor = at;
        }
    }

    /// Moves the cursor for a navigation key; false when the key is not one.
    pub fn navigate(&mut self, key: &Key, page: usize) -> bool {
        let count = self.visible.len();
        if count == 0 {
            return matches!(
                key,
                Key::Up | Key::Down | Key::Home | Key::End | Key::PageUp | Key::PageDown
            );
        }
        self.cursor = match key {
            Key::Up => (self.cursor + count - 1) % count,
            Key::Down => (self.cursor + 1) % count,
            Key::Home => 0,
            Key::End => count - 1,
            Key::PageUp => self.cursor.saturating_sub(page.max(1)),
            Key::PageDown => (self.cursor + page.max(1)).min(count - 1),
            _ => return false,
        };
        true
    }

    /// Keeps the entries for which `matches` says yes, the cursor on the same entry if it stays.
    pub fn refilter(&mut self, count: usize, matches: impl Fn(usize) -> bool) {
        let current = self.current();
        self.visible = (0..count).filter(|&i| matches(i)).collect();
        self.cursor = current
            .and_then(|c| self.visible.iter().position(|&i| i == c))
            .unwrap_or(0);
        self.offset = 0;
    }

    /// The visible entries that fit in `rows` rows, where entry `i` takes `height(i)` rows, and
    /// whether entries are hidden above and below. Scrolls just enough to show the cursor.
    pub fn window(
        &mut self,
        rows: usize,
        height: impl Fn(usize) -> usize,
    ) -> (std::ops::Range<usize>, bool, bool) {
        let count = self.visible.len();
        if count == 0 {
            return (0..0, false, false);
        }
        let rows = rows.max(1);
        self.offset = self.offset.min(self.cursor);
        // Scroll down just enough for the cursor's entry to fit below the offset: the lowest
        // offset, not above the old one, from which the entries down to the cursor fit. Found
        // from the cursor upwards, so a jump to the end of a long list costs a screen's worth
        // of entries, not the whole distance for every step.
        let mut first = self.cursor;
        let mut used = height(self.visible[first]);
        while first > self.offset {
            let above = height(self.visible[first - 1]);
            if used + above > rows {
                break;
            }
            used += above;
            first -= 1;
        }
        self.offset = first;
        let mut end = self.offset;
        let mut used = 0;
        while end < count && used + height(self.visible[end]) <= rows {
            used += height(self.visible[end]);
            end += 1;
        }
        let end = end.max(self.cursor + 1);
        (self.offset..end, self.offset > 0, end < count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_pages_and_scrolls() {
        let mut list = List::new(100, 0);
        list.navigate(&Key::Up, 10);
        assert_eq!(list.current(), Some(99));
        let (range, above, below) = list.window(10, |_| 1);
        assert_eq!((range, above, below), (90..100, true, false));
        list.navigate(&Key::Home, 10);
        list.navigate(&Key::PageDown, 10);
        assert_eq!(list.current(), Some(10));
        let (range, above, below) = list.window(10, |_| 1);
        assert_eq!(
            (range.start, range.end, above, below),
            (10, 20, true, true),
            "the cursor at the top after a jump"
        );
    }

    #[test]
    fn a_jump_scrolls_just_enough_for_the_cursor_entry() {
        // Entries of one and two rows: the window ends at the cursor and holds as many
        // entries above it as fit.
        let height = |i: usize| 1 + i % 2;
        let mut list = List::new(100_000, 0);
        list.navigate(&Key::End, 10);
        let (range, above, below) = list.window(10, height);
        assert_eq!((range, above, below), (99_994..100_000, true, false));
        // Moving up inside the window keeps it where it is.
        list.navigate(&Key::Up, 10);
        assert_eq!(list.window(10, height).0, 99_994..100_000);
        // An entry taller than the window is shown alone, from its top.
        let mut list = List::new(3, 2);
        let (range, above, below) = list.window(2, |i| if i == 2 { 5 } else { 1 });
        assert_eq!((range, above, below), (2..3, true, false));
    }

    #[test]
    fn slash_filters_on_labels_and_esc_clears() {
        let labels = ["Red", "Green", "Blue"];
        let labels = |i: usize| labels.get(i).copied();
        let mut list = List::new(4, 0);
        assert!(list.filter_key(&Key::Char('/'), labels));
        list.filter_key(&Key::Char('G'), labels);
        assert_eq!(
            list.visible(),
            [1, 3],
            "case-insensitive; the unlabelled entry stays"
        );
        list.filter_key(&Key::Char('x'), labels);
        assert_eq!(list.visible(), [3]);
        list.filter_key(&Key::Backspace, labels);
        assert_eq!(list.visible(), [1, 3]);
        list.filter_key(&Key::Esc, labels);
        assert_eq!(list.visible(), [0, 1, 2, 3]);
        assert!(
            !list.filter_key(&Key::Char('x'), labels),
            "typing without / is not filtering"
        );
        assert!(list.filter_key(&Key::Char('/'), labels));
        list.filter_key(&Key::Char('b'), labels);
        assert_eq!(list.visible(), [2, 3], "a second filter as the first");
    }

    #[test]
    fn filtering_keeps_the_cursor_entry() {
        let mut list = List::new(10, 4);
        list.refilter(10, |i| i % 2 == 0);
        assert_eq!(list.visible(), [0, 2, 4, 6, 8]);
        assert_eq!(list.current(), Some(4));
        list.refilter(10, |i| i == 7);
        assert_eq!(list.current(), Some(7));
        list.refilter(10, |_| false);
        assert_eq!(list.current(), None);
    }
}
