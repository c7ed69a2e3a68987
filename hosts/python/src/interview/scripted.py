"""A UI that plays back replies, for tests: what a program that embeds the plugin uses to check
its requests without a person."""

from typing import Iterable, List, Optional, Tuple, Union

from .ui import Absence, Mode, Nav, Review, Ui, Unavailable


class ScriptedUi(Ui):
    """Answers each widget with the next of ``replies`` (the values a :class:`Ui` returns:
    ``Picked(1)``, ``"Ada"``, ``True``, ``Nav.BACK``, ``Review.SUBMIT``, ...); once they run out,
    every widget cancels, as at the end of input. ``asked`` records each widget's name, frame
    and request. With ``unavailable`` (an :class:`Absence` or its name), nobody is there for
    that reason."""

    def __init__(self, replies: Iterable = (), unavailable: Optional[Union[Absence, str]] = None):
        self.replies = list(replies)
        self.unavailable = None if unavailable is None else Absence(unavailable)
        self.asked: List[Tuple[str, object, object]] = []

    def mode(self) -> Union[Mode, Unavailable]:
        return Mode.WIDGETS if self.unavailable is None else Unavailable(self.unavailable)

    def _next(self, widget, frame, request, out_of_replies):
        self.asked.append((widget, frame, request))
        return self.replies.pop(0) if self.replies else out_of_replies

    def select(self, frame, request):
        return self._next("select", frame, request, Nav.CANCEL)

    def multi_select(self, frame, request):
        return self._next("multi_select", frame, request, Nav.CANCEL)

    def text(self, frame, request):
        return self._next("text", frame, request, Nav.CANCEL)

    def confirm(self, frame, request):
        return self._next("confirm", frame, request, Nav.CANCEL)

    def number(self, frame, request):
        return self._next("number", frame, request, Nav.CANCEL)

    def review(self, request):
        return self._next("review", None, request, Review.CANCEL)
