"""Questions about a game's setup: which cards a deck may hold, how many cards
a mulligan draws, who decides the first player.

Most questions of a rule book (``model/rulings.py``) are asked of the states
the model reaches.  Rules about setting a game up answer questions no state
of play asks, so no state machine reaches them, yet their sources disagree
as often as the rules of play do.  A *setup question* is a ``Question`` like
any other (rulings per source, versions, readings, precedence) with two
differences: its arguments are a finite *setup domain* (each kind of hero
with each kind of card, each hand size, each number of players), and it is
asked at no location (``asked_at`` is empty; ``fixed``: its rulings read the
setup, never the state).

A game's rule book holds its setup questions beside the others, so building
the model checks their citations as it checks every ruling's (an unknown
source, a line past the end of its file, a rule the registry lacks or marks
not-modelled), and every reading reaches them.  ``chainproof lint`` asks them
over their whole domain, not over the states searched
(``chainproof.linting.lint_setup``): the whole domain is checked, so what it
finds there is found for every setup the domain names.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from model.backend import CONCRETE
from model.rulings import Question, RuleBook, Ruling
from model.sources import place


def setup_question(
    name: str,
    doc: str,
    rulings: Iterable[Ruling],
    domain: Iterable[tuple[Any, ...]],
    show: Callable[..., str],
    default: Any = False,
    default_texts: Mapping[str, str] | None = None,
    show_answer: Callable[[Any], str] | None = None,
) -> Question:
    """A question whose arguments range over ``domain`` and which no state asks.

    Its answers may be numbers rather than yes or no: where a ruling says a
    number, the question is valued, and its default (the answer where no
    ruling applies) is ``default`` as given, whatever reading selects."""
    domain, rulings = tuple(domain), tuple(rulings)
    if not domain:
        raise ValueError(f"setup question {name!r} has an empty domain: nothing to ask it of")
    if not callable(default) and any(callable(r.says) or not isinstance(r.says, (bool, type(None))) for r in rulings):
        # A reading may keep only constant rulings; a callable default keeps the question valued under every one.
        default = _constant(default)
    extra = {} if show_answer is None else {"show_answer": show_answer}
    return Question(
        name, doc, rulings, domain, asked_at=(), default=default, show=show,
        default_texts=dict(default_texts or {}), fixed=True, **extra,
    )


def _constant(value: Any) -> Callable[..., Any]:
    return lambda s, b, *args: value


def is_setup(q: Question) -> bool:
    """Is ``q`` asked of the setup rather than of the states of play?"""
    return q.fixed and not q.asked_at


def setup_questions(book: RuleBook | None) -> tuple[Question, ...]:
    """The setup questions ``book`` declares, every version of each ruling kept."""
    return tuple(q for q in book.declared.values() if is_setup(q)) if book is not None else ()


def applies(r: Ruling, args: tuple[Any, ...]) -> bool:
    """Does the ruling ``r`` of a setup question apply to the setup ``args``?"""
    return bool(r.applies(None, CONCRETE, *args))


def deciding(book: RuleBook, name: str, args: tuple[Any, ...]) -> tuple[Ruling, ...]:
    """The live rulings of ``book`` that give its answer to ``name`` for the
    setup ``args`` (none where the question's default answers)."""
    answer = book.fixed(name, *args)
    live = book.live_concrete(name, None, args)
    return tuple(r for r in live if r.says is not None and r.value(None, CONCRETE, *args) == answer)


def answer_places(book: RuleBook, name: str, args: tuple[Any, ...]) -> tuple[str, ...]:
    """``file:line`` of each text that gives ``book``'s answer for ``args``:
    the deciding rulings' texts, or the default's where no ruling answers."""
    rulings = deciding(book, name, args)
    if rulings:
        return tuple(dict.fromkeys(p for r in rulings for p in r.places()))
    return tuple(place(src, at) for src, at in book.declared[name].default_texts.items())
