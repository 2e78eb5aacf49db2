"""The violation picker of the inspection dialog without Qt: which items of the housing code the
typed words find (over section and title), which one item the text names exactly, and what
the inspector is told when it names none. Only an exact choice is recorded: a first match is
never taken for the inspector (a violation recorded is a fact of the case, 140-2)."""

from __future__ import annotations

from collections.abc import Sequence

from desk.housing.codes import Standard


def label(s: Standard) -> str:
    """The item as the picker lists it: '140-6C Stairs, porches and appurtenances'."""
    return f"{s.section} {s.title}"


def _words(text: str) -> list[str]:
    return [w.strip(",;.").lower() for w in text.split() if w.strip(",;.")]


def matching(standards: Sequence[Standard], typed: str) -> list[Standard]:
    """The items whose section and title hold every typed word, in the code's order (all of
    them for no word): 'handrail' finds the items that say handrail, '140-6' those of 140-6."""
    words = _words(typed)
    return [s for s in standards if all(w in label(s).lower() for w in words)]


def exact(standards: Sequence[Standard], typed: str) -> Standard | None:
    """The one item the text names: its section, or its section and title as listed."""
    text = " ".join(typed.split()).lower()
    if not text:
        return None
    for s in standards:
        if text in (s.section.lower(), label(s).lower()):
            return s
    return None


def refusal(standards: Sequence[Standard], typed: str, code_name: str) -> str:
    """Why the typed text is not accepted, naming it (shown under the form, the field marked)."""
    text = " ".join(typed.split())
    found = matching(standards, text)
    if not found:
        example = f" (e.g. {standards[0].section})" if standards else ""
        return (
            f"no item of {code_name} matches “{text}”: type its section{example} or words of "
            "its title"
        )
    if len(found) == 1:
        return (
            f"“{text}” is not an item as listed: choose {label(found[0])} from the list (Down, "
            "then Enter)"
        )
    return (
        f"“{text}” is not one item: {len(found)} items match; choose one from the list (Down, "
        "then Enter)"
    )


__all__ = ["exact", "label", "matching", "refusal"]
