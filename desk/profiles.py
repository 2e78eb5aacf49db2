"""The municipalities shipped with the app (resources/municipalities.toml): their profiles as
the file gives them. Standard library only: the command line lists them in its help."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any


def shipped_profiles() -> dict[str, dict[str, Any]]:
    text = resources.files("resources").joinpath("municipalities.toml").read_text("utf-8")
    return tomllib.loads(text)
