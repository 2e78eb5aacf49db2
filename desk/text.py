"""Small helpers for the words messages are made of."""

from __future__ import annotations


def sentence_start(text: str) -> str:
    """`text` with its first character upper-cased and the rest as it is: a message that begins
    with a licence or permit number ("RH-2026-0001 is revoked") keeps the number's own case,
    which str.capitalize() would lower ("Rh-2026-0001")."""
    return text[:1].upper() + text[1:]
