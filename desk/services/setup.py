"""Creating a municipality from its shipped profile (resources/municipalities.toml)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from desk.clock import Clock
from desk.domain.model import Actor, Municipality
from desk.domain.municipality import FIRST_VERSION_FROM, version_of
from desk.domain.permissions import Permission, require
from desk.errors import ValidationError
from desk.services.uow import UnitOfWork


def shipped_profiles() -> dict[str, dict[str, Any]]:
    text = resources.files("resources").joinpath("municipalities.toml").read_text("utf-8")
    return tomllib.loads(text)


def ensure_municipality(uow: UnitOfWork, clock: Clock, actor: Actor | None, key: str) -> int:
    """Return the municipality's id, creating it from its profile on first use.

    `actor` is None only during first start, before any user exists.
    """
    profiles = shipped_profiles()
    if key not in profiles:
        raise ValidationError(
            "municipality", f"'{key}' has no profile; known: {', '.join(sorted(profiles))}"
        )
    if actor is not None:
        require(actor, Permission.MANAGE_MUNICIPALITY)
    p = profiles[key]
    with uow:
        existing = uow.municipalities.by_key(key)
        if existing is not None:
            assert existing.id is not None
            return existing.id
        uow.act_as(actor, clock.now())
        # Another workstation may be creating it too: wait for it, then look again.
        uow.serialise(f"municipality {key}")
        existing = uow.municipalities.by_key(key)
        if existing is not None:
            assert existing.id is not None
            return existing.id
        m = Municipality(
            key=key,
            name=p["name"],
            letterhead=list(p.get("letterhead", [])),
            inspector_name=p.get("inspector_name", ""),
            inspector_title=p.get("inspector_title", "Building Inspector"),
            # A profile's [settings] (e.g. housing_code) start the municipality's settings.
            settings={
                **dict(p.get("settings", {})),
                "city": p.get("city", ""),
                "zip": p.get("zip", ""),
            },
        )
        uow.municipalities.add(m)
        uow.flush()
        # Its first letterhead version is in force from FIRST_VERSION_FROM, not from now:
        # permits entered later with earlier dates (records brought over from paper) must
        # print too, and until an administrator changes it the municipality printed as set up.
        uow.registers.add(version_of(m, FIRST_VERSION_FROM))
        uow.commit()
        assert m.id is not None
        return m.id
