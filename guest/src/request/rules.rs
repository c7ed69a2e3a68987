//! The tools this plugin answers, and what each tool's name changes about a request.
//!
//! `interview` reads every dialect by its field names alone. Tools whose meaning is in their
//! name (`ask_question` and `ask_multi_select`) force what their name promises.

/// A tool the plugin answers. Every tool reads every dialect; the agents' own tools also answer
/// in that agent's words and shape (see [`crate::native`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tool {
    /// The general tool: every dialect, one question or a batch. It is also elelem's
    /// `interview`, whose shape its native result has.
    Interview,
    /// Claude Code's `AskUserQuestion`.
    AskUserQuestion,
    /// Codex's `request_user_input`.
    RequestUserInput,
    /// Gemini CLI's `ask_user`.
    AskUser,
    /// opencode's `question`.
    Question,
    /// Wegent's `interactive_form_question`.
    InteractiveFormQuestion,
    /// pi's `user_select`.
    UserSelect,
    /// One select of 2-6 options, always with "Something else" and "Let's discuss this".
    AskQuestion,
    /// A multi-select that needs at least one pick.
    AskMultiSelect,
    /// The signal that conversation mode is over; a fixed reply, nothing asked.
    ResumeStructured,
}

/// The names a runtime may route to each tool. Other agents' tool names read as `interview`.
const NAMES: &[(&str, Tool)] = &[
    ("interview", Tool::Interview),
    ("ask_user", Tool::AskUser),
    ("ask_user_question", Tool::AskUserQuestion),
    ("request_user_input", Tool::RequestUserInput),
    ("question", Tool::Question),
    ("interactive_form_question", Tool::InteractiveFormQuestion),
    ("user_select", Tool::UserSelect),
    ("ask_question", Tool::AskQuestion),
    ("ask_multi_select", Tool::AskMultiSelect),
    ("resume_structured", Tool::ResumeStructured),
];

impl Tool {
    /// The tool called `name`; case, `_` and `-` do not matter (`AskUserQuestion` is `ask_user_question`).
    pub fn named(name: &str) -> Option<Tool> {
        let key = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let wanted = key(name);
        NAMES
            .iter()
            .find(|(n, _)| key(n) == wanted)
            .map(|(_, tool)| *tool)
    }

    /// Every name `named` accepts, for error messages.
    pub fn all_names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().map(|(name, _)| *name)
    }

    /// What this tool forces on each question.
    pub fn rules(self) -> ToolRules {
        match self {
            Tool::AskQuestion => ToolRules {
                kind: Some(KindName::Select),
                notes: false,
                other: Some(true),
                discuss: Some(true),
                options: Some((2, 6)),
                ..ToolRules::default()
            },
            Tool::AskMultiSelect => ToolRules {
                kind: Some(KindName::MultiSelect),
                other: Some(false),
                min_picks: Some(1),
                notes: false,
                ..ToolRules::default()
            },
            // Gemini CLI turns `\n` written out in its arguments into line breaks, and offers a
            // yes/no question as the options Yes and No beside a typed answer (`ask-user.ts`,
            // `AskUserDialog.tsx`).
            Tool::AskUser => ToolRules {
                literal_newlines: true,
                yes_no_choice: true,
                notes: false,
                ..ToolRules::default()
            },
            // Their results keep one answer per question and nothing beside it.
            Tool::Question | Tool::InteractiveFormQuestion | Tool::UserSelect => ToolRules {
                notes: false,
                ..ToolRules::default()
            },
            // Claude Code's dialog lets a person move past a question (Tab) and send the answers
            // without it; its result then leaves the question out. Codex's moves past one with
            // the arrows and sends it, once confirmed, with an empty list of answers.
            Tool::AskUserQuestion | Tool::RequestUserInput => ToolRules {
                optional: true,
                ..ToolRules::default()
            },
            Tool::Interview | Tool::ResumeStructured => ToolRules::default(),
        }
    }
}

/// The kind named by a request, before its settings are read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KindName {
    Text,
    Select,
    MultiSelect,
    Confirm,
    Number { integer: bool },
}

/// Settings a tool's name fixes, whatever the arguments say.
#[derive(Clone, Copy, Debug)]
pub struct ToolRules {
    pub kind: Option<KindName>,
    pub other: Option<bool>,
    pub discuss: Option<bool>,
    pub min_picks: Option<u32>,
    /// Fewest and most options.
    pub options: Option<(usize, usize)>,
    /// `\n` and `\r\n` written out as backslash sequences in texts are line breaks.
    pub literal_newlines: bool,
    /// A yes/no question is a select of `Yes` and `No`, where the person may type instead.
    pub yes_no_choice: bool,
    /// A choice question may offer notes on the pick (false where the tool's own result has
    /// no place for one).
    pub notes: bool,
    /// A question the arguments do not call required may be left unanswered, as the agent's
    /// own dialog allows.
    pub optional: bool,
}

impl Default for ToolRules {
    fn default() -> Self {
        ToolRules {
            kind: None,
            other: None,
            discuss: None,
            min_picks: None,
            options: None,
            literal_newlines: false,
            yes_no_choice: false,
            notes: true,
            optional: false,
        }
    }
}

impl ToolRules {
    /// A text from the agent, as this tool reads it.
    pub fn text(&self, text: String) -> String {
        if self.literal_newlines && text.contains('\\') {
            text.replace("\\r\\n", "\n").replace("\\n", "\n")
        } else {
            text
        }
    }
}
