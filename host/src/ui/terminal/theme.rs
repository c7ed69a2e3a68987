//! A small theme: the few styles the terminal UI uses, with colour only where it is wanted.

/// Terminal attributes of a span.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Style {
    /// An SGR colour code (`32` green), or none.
    pub colour: Option<u8>,
    pub bold: bool,
    pub dim: bool,
    pub reverse: bool,
}

impl Style {
    /// The SGR parameters that set this style on a plain terminal: `1;36`, or "" for plain.
    pub fn parameters(&self) -> String {
        let mut codes = Vec::new();
        if self.bold {
            codes.push("1".to_string());
        }
        if self.dim {
            codes.push("2".to_string());
        }
        if self.reverse {
            codes.push("7".to_string());
        }
        if let Some(colour) = self.colour {
            codes.push(colour.to_string());
        }
        codes.join(";")
    }
}

/// The styles of each part of the UI.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub text: Style,
    pub prompt: Style,
    pub header: Style,
    pub muted: Style,
    pub cursor: Style,
    pub selected: Style,
    pub badge: Style,
    pub error: Style,
    pub done: Style,
    pub hint: Style,
}

impl Theme {
    /// Colours for a colour terminal; with `colour` false (NO_COLOR, `TERM=dumb`), attributes only.
    pub fn new(colour: bool) -> Self {
        let paint = |code: u8| if colour { Some(code) } else { None };
        let plain = Style::default();
        Theme {
            text: plain,
            prompt: Style {
                bold: true,
                ..plain
            },
            header: Style {
                colour: paint(36),
                ..plain
            },
            muted: Style { dim: true, ..plain },
            cursor: Style {
                colour: paint(36),
                bold: true,
                ..plain
            },
            selected: Style {
                colour: paint(36),
                bold: !colour,
                ..plain
            },
            badge: Style {
                colour: paint(33),
                dim: !colour,
                ..plain
            },
            error: Style {
                colour: paint(31),
                bold: true,
                ..plain
            },
            done: Style {
                colour: paint(32),
                ..plain
            },
            hint: Style { dim: true, ..plain },
        }
    }
}
