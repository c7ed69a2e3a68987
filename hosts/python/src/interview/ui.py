"""What a UI is given and what it answers: the ``ui`` interface of the plugin's WIT, as plain
Python values.

A UI only shows a widget and reports what the person did; the plugin decides what to ask, judges
every answer and asks again with ``frame.error`` set until it is acceptable. Every text in these
values is already safe to print: the plugin removed escape sequences, control characters and
invisible characters from the agent's text.

Subclass :class:`Ui` and override the widgets your medium can show::

    class Chat(Ui):
        def confirm(self, frame, request):
            return ask_in_chat(frame.prompt) == "yes"
"""

from dataclasses import dataclass, field
from enum import Enum
from typing import List, Optional, Union


class Mode(str, Enum):
    """How the UI reaches a person (or :class:`Unavailable`: nobody can answer)."""

    WIDGETS = "widgets"
    """The UI draws each widget (a terminal read key by key, a web page, a chat)."""
    LINES = "lines"
    """Line by line: the plugin writes its numbered lists (:meth:`Ui.write`) and reads each
    line itself (:meth:`Ui.read_line`); the widgets are not called."""


class Absence(str, Enum):
    """Why nobody can answer: the plugin tells the model in words."""

    NO_TERMINAL = "no-terminal"
    """No terminal and no input to ask on (a headless run)."""
    NO_INBOX = "no-inbox"
    """Nobody can be asked where this runs, and no ``interview inbox`` open to ask in instead."""
    BACKGROUND = "background"
    """A terminal, but this process is not its foreground job."""
    NO_INPUT = "no-input"
    """The input ended before the first answer."""
    FORM_DISMISSED = "form-dismissed"
    """The client was sent a form and dismissed it at once."""
    PAGE_NOT_OPENED = "page-not-opened"
    """A page to answer on was offered, and nobody opened it in time."""
    UNKNOWN_ADDRESSEE = "unknown-addressee"
    """A team inbox has nobody by the name the question is addressed to."""
    INBOX_REFUSED = "inbox-refused"
    """A team inbox refused the agent (a token it does not know, or one revoked)."""


@dataclass(frozen=True)
class Unavailable:
    """Nobody can answer, for this reason: the plugin asks nothing and reports
    ``unavailable``, with the reason in words for the model."""

    absence: Absence = Absence.NO_TERMINAL


class Nav(str, Enum):
    """Leaving a question without answering it; every widget may return one."""

    BACK = "back"
    """The previous question (the plugin says so on the first one)."""
    SKIP = "skip"
    """Skip an optional question."""
    CANCEL = "cancel"
    """Stop: the result is ``cancelled`` with the answers given so far."""
    DECLINE = "decline"
    """Refuse the whole request, where ``frame.declinable`` (an MCP elicitation)."""
    TIME_UP = "time-up"
    """The time this UI was given to reach a person is up (a deadline of its own): the result
    is ``unavailable`` (reason ``timed-out``) with the answers given so far."""


@dataclass(frozen=True)
class Choice:
    """One entry of a select or multi-select."""

    label: str
    value: str
    description: Optional[str] = None
    preview: Optional[str] = None
    """Monospace text to show as it is (lines kept) while the entry is looked at."""
    recommended: bool = False
    """Draw a "recommended" badge (never set where the label already says so)."""


@dataclass(frozen=True)
class Frame:
    """Where a question stands and its texts, common to every widget."""

    position: int
    """1-based position in the batch."""
    total: int
    header: Optional[str]
    place: Optional[str]
    """The line above the question: ``Question 2 of 4 · Deploy``, or the header alone."""
    prompt: str
    """The question; may hold line breaks."""
    required: bool
    """When false the person may skip it."""
    mark_optional: bool
    """Show " (optional)" after the prompt (the prompt or header does not say it already)."""
    hint: Optional[str]
    """What an acceptable answer is, in words (``pick 1 to 3``); show it near the widget."""
    error: Optional[str]
    """Why the previous answer was refused; show it near the widget."""
    context: Optional[str]
    """What the whole request is about: show it once, above the first question."""
    declinable: bool
    """The person may decline the whole request (``Nav.DECLINE``)."""


@dataclass(frozen=True)
class SelectRequest:
    options: List[Choice]
    selected: Optional[int]
    """The entry under the cursor at the start (earlier answer or default)."""
    other_label: Optional[str]
    """The free-text entry's label, when typed answers are allowed."""
    other_text: Optional[str]
    discuss_label: Optional[str]
    notes: bool
    """The person may add a note to their pick."""
    note: Optional[str]


@dataclass(frozen=True)
class MultiSelectRequest:
    options: List[Choice]
    selected: List[int]
    other_label: Optional[str]
    other_text: Optional[str]
    min_picks: Optional[int]
    max_picks: Optional[int]
    notes: bool
    note: Optional[str]


@dataclass(frozen=True)
class TextRequest:
    multiline: bool
    placeholder: Optional[str]
    initial: Optional[str]
    secret: bool
    """Do not echo what is typed."""
    min_length: Optional[int]
    max_length: Optional[int]


@dataclass(frozen=True)
class ConfirmRequest:
    initial: Optional[bool]


@dataclass(frozen=True)
class NumberRequest:
    initial: Optional[float]
    min: Optional[float]
    max: Optional[float]
    exclusive_min: Optional[float]
    exclusive_max: Optional[float]
    integer: bool


@dataclass(frozen=True)
class ReviewItem:
    header: Optional[str]
    prompt: str
    answer: str
    """The answer in words, as the person would say it."""


@dataclass(frozen=True)
class ReviewRequest:
    items: List[ReviewItem]
    context: Optional[str]
    declinable: bool


@dataclass(frozen=True)
class Picked:
    """A select's answer: ``options[index]``, with the person's note."""

    index: int
    note: Optional[str] = None


@dataclass(frozen=True)
class Other:
    """A select answered in the person's own words."""

    text: str


@dataclass(frozen=True)
class Discuss:
    """The person chose "Let's discuss this"."""


@dataclass(frozen=True)
class MultiPicked:
    """A multi-select's answer: option indices, a typed answer, the person's note."""

    picked: List[int] = field(default_factory=list)
    other: Optional[str] = None
    note: Optional[str] = None


class Review(str, Enum):
    """How the review step ends, besides :class:`Edit`."""

    SUBMIT = "submit"
    CANCEL = "cancel"
    DECLINE = "decline"
    TIME_UP = "time-up"


@dataclass(frozen=True)
class Edit:
    """Change the answer of ``items[index]`` at the review step."""

    index: int


class Tone(str, Enum):
    """How a span of the line mode's text is set off, where the medium can."""

    PLAIN = "plain"
    STRONG = "strong"
    """The question, a title: bold."""
    FAINT = "faint"
    """Hints, descriptions, the place line: dim."""
    ALERT = "alert"
    """Why an answer was refused: bold red."""


@dataclass(frozen=True)
class Span:
    """Text the plugin writes in the line mode; it may hold line breaks."""

    text: str
    tone: Tone = Tone.PLAIN


@dataclass(frozen=True)
class TooLong:
    """A line longer than ``limit`` bytes was read past and dropped: the plugin asks again."""

    limit: int


class LineEnd(str, Enum):
    """No line will come again."""

    ENDED = "ended"
    """The input ended (end of file, a closed pipe)."""
    INTERRUPTED = "interrupted"
    """Ctrl-C, a signal, the request withdrawn."""


LineRead = Union[str, TooLong, LineEnd]
"""A line (without its line break), a line too long, or the end."""

SelectReply = Union[Picked, Other, Discuss, Nav]
MultiSelectReply = Union[MultiPicked, Nav]
TextReply = Union[str, Nav]
"""The text submitted (``""`` for nothing), or a nav."""
ConfirmReply = Union[bool, Nav]
NumberReply = Union[str, Nav]
"""The text typed (the plugin parses and range-checks it), or a nav."""
ReviewReply = Union[Review, Edit]


class Ui:
    """A way to reach a person. Override the widgets; each one that is not overridden cancels,
    so that a UI that cannot show a kind of question never answers it by accident."""

    def mode(self) -> Union[Mode, Unavailable]:
        """How this UI reaches a person; :class:`Unavailable` makes the plugin ask nothing."""
        return Mode.WIDGETS

    def select(self, frame: Frame, request: SelectRequest) -> SelectReply:
        return Nav.CANCEL

    def multi_select(self, frame: Frame, request: MultiSelectRequest) -> MultiSelectReply:
        return Nav.CANCEL

    def text(self, frame: Frame, request: TextRequest) -> TextReply:
        return Nav.CANCEL

    def confirm(self, frame: Frame, request: ConfirmRequest) -> ConfirmReply:
        return Nav.CANCEL

    def number(self, frame: Frame, request: NumberRequest) -> NumberReply:
        return Nav.CANCEL

    def review(self, request: ReviewRequest) -> ReviewReply:
        """After the last question of a batch of two or more, and of every elicitation."""
        return Review.SUBMIT

    def write(self, spans: List[Span]) -> None:
        """In :attr:`Mode.LINES`: writes the plugin's text as it is."""

    def read_line(self, hidden: bool) -> LineRead:
        """In :attr:`Mode.LINES`: the next line typed; ``hidden`` for a secret (no echo)."""
        return LineEnd.ENDED

    def finished(self) -> None:
        """Called after each request, so that a UI can forget what it said once per request."""
