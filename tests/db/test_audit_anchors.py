"""Anchors of the audit trail kept outside the database (db/audit_anchors.py): the chain's head
written down (on paper, in the anchors file, beside a backup) lets a later check find the rows
deleted from the trail's end, the whole trail deleted, a row deleted in the middle, and a trail
rewritten and chained again, which the chain check alone cannot."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from db import schema
from db.audit_anchors import (
    Anchor,
    AnchorFileError,
    anchor_problems,
    anchor_problems_from_file,
    append_anchor,
    backup_anchor_path,
    head,
    parse_anchor,
    read_anchors,
    write_backup_anchor,
)
from db.audit_chain import breaks
from db.database import Database
from db.engine import sqlite_backup, sqlite_file
from db.migrate import check
from desk.clock import FixedClock
from desk.services import permits
from permitdesk.cli import main
from tests.cli_sign_in import signed
from tests.db.tampering import rechain, tamper
from tests.factories import Register, application, seed_register

WHEN = datetime(2026, 12, 1, 16, 40, tzinfo=UTC)
A_HASH = "3f9a" + "0" * 56 + "c21e"


def _register(database: Database, clock: FixedClock) -> tuple[Register, int]:
    """A small register made through the services, and the id of its second permit."""
    reg = seed_register(database, clock)
    return reg, permits.take_application(database.uow(), clock, reg.clerk, application(reg))


def _ids(database: Database) -> list[int]:
    """The audit rows' ids (PostgreSQL's may have gaps: a sequence is not rolled back)."""
    a = schema.audit_event.c
    with database.read() as conn:
        return [int(i) for i in conn.scalars(select(a.id).order_by(a.id))]


def _anchor(database: Database) -> Anchor:
    with database.read() as conn:
        return head(conn, FixedClock(WHEN))


def _problems(database: Database, *anchors: Anchor) -> list[str]:
    with database.read() as conn:
        return anchor_problems(conn, anchors)


def _chain_breaks(database: Database) -> list[int]:
    with database.read() as conn:
        return [b.row_id for b in breaks(conn)]


# --- the anchor and its forms --------------------------------------------------------------


def test_the_head_is_the_last_rows_id_its_hash_and_the_count(
    database: Database, clock: FixedClock
) -> None:
    _register(database, clock)
    a = schema.audit_event.c
    with database.read() as conn:
        last_id, last_hash = conn.execute(
            select(a.id, a.row_hash).order_by(a.id.desc()).limit(1)
        ).one()
        count = conn.execute(select(func.count()).select_from(schema.audit_event)).scalar_one()
    anchor = _anchor(database)
    assert (anchor.row_id, anchor.row_hash, anchor.count) == (last_id, last_hash, count)
    assert anchor.taken_at == WHEN


def test_the_anchor_line_reads_back_and_prints_short_for_paper() -> None:
    anchor = Anchor(206, A_HASH, 205, WHEN)
    line = anchor.line()
    assert line == f"permitdesk-anchor 1 2026-12-01T16:40:00Z id=206 rows=205 hash={A_HASH}"
    assert parse_anchor(line) == anchor
    assert parse_anchor(f"  {line}\n") == anchor
    assert anchor.short() == "Audit trail anchor: row 206 (205 rows), 3f9a…c21e"
    empty = Anchor(0, "", 0, WHEN)
    assert empty.line().endswith("id=0 rows=0 hash=-") and parse_anchor(empty.line()) == empty
    for wrong in (
        "permitdesk-anchor 1 2026-12-01T16:40:00Z id=206 rows=205 hash=3f9a",
        f"permitdesk-anchor 1 2026-12-01 id=206 rows=205 hash={A_HASH}",
        f"permitdesk-anchor 1 2026-12-01T16:40:00Z id=206 rows=205 hash={A_HASH} extra",
        "permitdesk-anchor 1 2026-12-01T16:40:00Z id=206 rows=205 hash=-",
    ):
        with pytest.raises(ValueError, match="not an audit trail anchor"):
            parse_anchor(wrong)
    with pytest.raises(ValueError, match="version 2, newer than this Permit Desk"):
        parse_anchor(line.replace("anchor 1 ", "anchor 2 "))


def test_the_anchors_file_is_appended_to_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "folder" / "Audit anchors.txt"
    first = Anchor(10, A_HASH, 10, WHEN)
    second = Anchor(12, "b" * 64, 12, WHEN)
    append_anchor(path, first)
    before = path.read_bytes()
    append_anchor(path, second)
    assert path.read_bytes().startswith(before)
    assert read_anchors(path) == [first, second]
    # A line an editor left without its newline: the next anchor starts a line of its own.
    with path.open("a") as f:
        f.write("\n\n" + first.line())
    append_anchor(path, second)
    assert read_anchors(path) == [first, second, first, second]


def test_a_line_that_is_not_an_anchor_is_refused_with_its_line_number(tmp_path: Path) -> None:
    path = tmp_path / "Audit anchors.txt"
    path.write_text(f"{Anchor(10, A_HASH, 10, WHEN).line()}\n\ncopied from the close\n")
    with pytest.raises(
        AnchorFileError, match=r"Audit anchors\.txt, line 3: not an audit trail anchor"
    ):
        read_anchors(path)


# --- what a later check finds --------------------------------------------------------------


def test_a_register_only_added_to_since_its_anchors_has_no_problem(
    database: Database, clock: FixedClock
) -> None:
    reg, second = _register(database, clock)
    before = _anchor(database)
    permits.update_description(database.uow(), clock, reg.clerk, second, "Reroof, 30 sq")
    assert _problems(database, before, _anchor(database)) == []


def test_rows_deleted_from_the_end_are_found(
    database: Database, owner_engine: Engine, clock: FixedClock
) -> None:
    _register(database, clock)
    anchor = _anchor(database)
    kept = _ids(database)[-4]
    tamper(owner_engine, ("DELETE FROM audit_event WHERE id > :id", {"id": kept}))
    assert _chain_breaks(database) == []  # what is left still follows
    assert _problems(database, anchor) == [
        f"the audit trail ends at row {kept} but the anchor of 2026-12-01 16:40 UTC "
        f"saw row {anchor.row_id}: rows were deleted from its end"
    ]


def test_the_whole_trail_deleted_is_found(
    database: Database, owner_engine: Engine, clock: FixedClock
) -> None:
    _register(database, clock)
    anchor = _anchor(database)
    tamper(owner_engine, "DELETE FROM audit_event")
    assert not [p for p in check(database.engine) if p.startswith("audit trail")]
    assert _problems(database, anchor) == [
        f"the audit trail is empty but the anchor of 2026-12-01 16:40 UTC saw {anchor.count} rows "
        f"up to row {anchor.row_id}: the audit trail was deleted"
    ]


def test_a_row_deleted_in_the_middle_is_found_chained_again_or_not(
    database: Database, owner_engine: Engine, clock: FixedClock
) -> None:
    _register(database, clock)
    anchor = _anchor(database)
    ids = _ids(database)
    middle = ids[len(ids) // 2]
    tamper(owner_engine, ("DELETE FROM audit_event WHERE id = :id", {"id": middle}))
    assert _chain_breaks(database) == [ids[len(ids) // 2 + 1]]
    assert _problems(database, anchor) == [
        f"the anchor of 2026-12-01 16:40 UTC counted {anchor.count} rows up to row "
        f"{anchor.row_id}; the trail now holds {anchor.count - 1}: rows were deleted before it"
    ]
    rechain(owner_engine)
    assert _chain_breaks(database) == []  # the chain check is content again
    assert _problems(database, anchor) == [
        f"row {anchor.row_id} no longer has the hash the anchor of 2026-12-01 16:40 UTC "
        "recorded: the trail was rewritten after it"
    ]


def test_a_row_changed_and_the_trail_chained_again_after_an_anchor_is_found(
    database: Database, owner_engine: Engine, clock: FixedClock
) -> None:
    reg, second = _register(database, clock)
    early = _anchor(database)
    permits.update_description(database.uow(), clock, reg.clerk, second, "Reroof, 30 sq")
    late = _anchor(database)
    a = schema.audit_event.c
    with database.read() as conn:
        changed = conn.execute(
            select(func.min(a.id)).where(a.entity == "permit", a.entity_id == second)
        ).scalar_one()
    assert changed < early.row_id
    tamper(
        owner_engine,
        ("UPDATE audit_event SET changes = '[]' WHERE id = :id", {"id": changed}),
    )
    rechain(owner_engine)
    assert _chain_breaks(database) == []
    problems = _problems(database, early, late)
    assert problems == [
        f"row {early.row_id} no longer has the hash the anchor of 2026-12-01 16:40 UTC "
        "recorded: the trail was rewritten after it",
        f"row {late.row_id} no longer has the hash the anchor of 2026-12-01 16:40 UTC "
        "recorded: the trail was rewritten after it",
    ]


def test_the_anchors_file_is_checked_and_its_own_faults_said(
    database: Database, owner_engine: Engine, clock: FixedClock, tmp_path: Path
) -> None:
    _register(database, clock)
    path = tmp_path / "Audit anchors.txt"
    with database.read() as conn:
        assert anchor_problems_from_file(conn, path) == [f"there is no anchors file at {path}"]
    anchor = _anchor(database)
    append_anchor(path, anchor)
    with database.read() as conn:
        assert anchor_problems_from_file(conn, path) == []
    before_last = _ids(database)[-2]
    tamper(owner_engine, ("DELETE FROM audit_event WHERE id = :id", {"id": anchor.row_id}))
    with database.read() as conn:
        assert anchor_problems_from_file(conn, path) == [
            f"the audit trail ends at row {before_last} but the anchor of 2026-12-01 16:40 "
            f"UTC saw row {anchor.row_id}: rows were deleted from its end"
        ]
    with path.open("a") as f:
        f.write("not an anchor\n")
    with database.read() as conn:
        assert anchor_problems_from_file(conn, path) == [
            "the anchors file cannot be used: Audit anchors.txt, line 2: not an audit trail "
            "anchor: 'not an anchor'"
        ]


# --- beside a backup, and on the command line ---------------------------------------------


def test_a_backup_gets_its_own_heads_anchor_beside_it(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    _register(database, clock)
    out = tmp_path / "backup.db"
    path = sqlite_file(database.engine)
    if path is not None:
        sqlite_backup(path, out)
        written = write_backup_anchor(out, out, FixedClock(WHEN))  # the copy's own head
    else:
        out.write_bytes(b"pg_dump output")
        written = write_backup_anchor(database.engine, out, FixedClock(WHEN))
    assert written == _anchor(database)
    beside = backup_anchor_path(out)
    assert beside == tmp_path / "backup.db.anchor"
    assert beside.read_text() == written.line() + "\n"
    with database.read() as conn:
        assert anchor_problems_from_file(conn, beside) == []


def test_permitdesk_audit_anchor_prints_the_head_and_appends_it(
    database: Database,
    clock: FixedClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _register(database, clock)
    url = database.engine.url.render_as_string(hide_password=False)
    path = tmp_path / "Audit anchors.txt"
    args = ["audit", "anchor", "--append", str(path), "--database-url", url]
    assert main([*args, *signed(monkeypatch)]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    printed = parse_anchor(line)
    assert printed.row_id == _anchor(database).row_id  # the administrator's sign-in included
    assert read_anchors(path) == [printed]
    with database.read() as conn:
        assert anchor_problems_from_file(conn, path) == []
