"""The password rule, stated once for the dialogs, the command line and the services.

Length and a list of passwords people pick first, not composition rules: a long phrase is
stronger than "Passw0rd!" and easier to remember at the counter.
"""

from __future__ import annotations

MIN_LENGTH = 8

RULE = (
    f"At least {MIN_LENGTH} characters; not the user name (nor it with a few characters added), "
    "not one character repeated, and not a common password such as 'password1' or '12345678'. "
    "A short phrase is easy to remember."
)

# Passwords tried first by anyone guessing; compared without case.
_COMMON = frozenset(
    {
        "password",
        "password1",
        "password12",
        "password123",
        "passw0rd",
        "p@ssw0rd",
        "12345678",
        "123456789",
        "1234567890",
        "87654321",
        "11111111",
        "qwertyui",
        "qwerty123",
        "qwertyuiop",
        "asdfghjk",
        "abcd1234",
        "abcdefgh",
        "iloveyou",
        "letmein1",
        "welcome1",
        "changeme",
        "trustno1",
        "sunshine",
        "football",
        "baseball",
        "monkey123",
    }
)


def password_problem(password: str, username: str = "") -> str | None:
    """Why `password` may not be used, in words; None when it may."""
    if len(password) < MIN_LENGTH:
        return f"use at least {MIN_LENGTH} characters"
    if password != password.strip():
        return "do not begin or end the password with a space"
    lowered = password.lower()
    if len(set(lowered)) == 1:
        return "do not repeat one character"
    name = username.strip().lower()
    if name and name in lowered and len(lowered.replace(name, "")) < 4:  # "carol123"
        return "do not use the user name as the password"
    if lowered in _COMMON:
        return "this is one of the first passwords anyone would try; choose another"
    return None
