"""Opening a database: create it, upgrade it (after a backup), or refuse it when it is newer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from db.engine import DatabaseError, read_connection, sqlite_backup, sqlite_file

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
# The newest revision in db/migrations/versions (a test keeps them equal). Opening a database
# that is already there needs no Alembic import, which keeps the app's start fast.
HEAD = "0024"


def _config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {s.revision for s in ScriptDirectory.from_config(_config()).walk_revisions()}


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def _stamped_revision(engine: Engine) -> str | None:
    """The revision stamp read with plain SQL (no Alembic); None when there is none."""
    try:
        with read_connection(engine) as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except DBAPIError:
        return None


@dataclass(frozen=True)
class OpenResult:
    created: bool
    upgraded_from: str | None
    backup: Path | None

    @property
    def message(self) -> str | None:
        if self.upgraded_from is None:
            return None
        where = f" A backup of the old database is at {self.backup}." if self.backup else ""
        return (
            f"The database was upgraded from revision {self.upgraded_from} "
            f"to {head_revision()}.{where}"
        )


def backup_path(db_path: Path, label: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return db_path.with_name(f"{db_path.stem}.{label}-{stamp}.bak{db_path.suffix}")


def upgrade(engine: Engine, target: str = "head") -> OpenResult:
    """Bring the schema to `target`. An existing SQLite file is backed up first."""
    if target in ("head", HEAD) and _stamped_revision(engine) == HEAD:
        return OpenResult(created=False, upgraded_from=None, backup=None)
    from alembic import command

    current = current_revision(engine)
    has_tables = bool(inspect(engine).get_table_names())
    if current is None and has_tables:
        raise DatabaseError("this database was not made by Permit Desk (it has no schema revision)")
    if current is not None and current not in known_revisions():
        raise DatabaseError(
            f"this database is newer than this version of Permit Desk (schema {current}); "
            "install the newer Permit Desk to open it"
        )
    head = head_revision() if target == "head" else target
    if current == head:
        return OpenResult(created=False, upgraded_from=None, backup=None)
    backup: Path | None = None
    path = sqlite_file(engine)
    if current is not None and path is not None and path.exists():
        backup = backup_path(path, f"before-{head}")
        sqlite_backup(path, backup)
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection if path is not None else None
        if raw is not None:
            # Batch migrations copy tables, so foreign keys go off (outside any transaction:
            # the pragma is a no-op inside one) and are checked once at the end instead.
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with conn.begin():
                cfg = _config()
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, target)
                if raw is not None:
                    problems = conn.execute(text("PRAGMA foreign_key_check")).all()
                    if problems:
                        raise DatabaseError(f"the upgrade left broken references: {problems[:5]}")
        finally:
            if raw is not None:
                raw.execute("PRAGMA foreign_keys=ON")
    return OpenResult(created=current is None, upgraded_from=current, backup=backup)


def check(engine: Engine) -> list[str]:
    """Integrity and foreign-key problems, in words; empty when the database is sound."""
    problems: list[str] = []
    try:
        return _check(engine, problems)
    except DBAPIError as e:
        # A damaged file fails anywhere, even reading the revision: one line, not a traceback.
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]
        problems.append(f"the database cannot be read to the end ({reason}); restore a backup")
        return problems


def _check(engine: Engine, problems: list[str]) -> list[str]:
    current = current_revision(engine)
    if current is None:
        return ["the database has no Permit Desk schema"]
    if current not in known_revisions():
        return [f"the schema revision {current} is newer than this Permit Desk"]
    if current != head_revision():
        problems.append(f"the schema is at revision {current}; run 'permitdesk db upgrade'")
    with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            for (msg,) in conn.execute(text("PRAGMA integrity_check")):
                if msg != "ok":
                    problems.append(f"integrity: {msg}")
            for row in conn.execute(text("PRAGMA foreign_key_check")):
                problems.append(f"foreign key: {row[0]} row {row[1]} points to missing {row[2]}")
        problems.extend(_register_checks(conn))
        if conn.dialect.name == "postgresql":
            from db.roles import privilege_problems  # the audit trail's guards, who is connected

            problems.extend(privilege_problems(conn))
    return problems


def _register_checks(conn: object) -> list[str]:
    """Checks of the register itself that SQL constraints cannot express."""
    from sqlalchemy import Connection

    assert isinstance(conn, Connection)
    out: list[str] = []
    # The counter must never be behind the highest number used, or the next issue would collide.
    # (It may be ahead: an office that started mid-year continues its paper book's numbering.)
    rows = conn.execute(
        text(
            "SELECT c.municipality_id, c.year, c.value, "
            "(SELECT MAX(CAST(SUBSTR(p.number, 6) AS INTEGER)) FROM permit p "
            " WHERE p.municipality_id = c.municipality_id "
            " AND p.number LIKE CAST(c.year AS VARCHAR(4)) || '-%') "
            "FROM number_counter c WHERE c.series = 'P'"
        )
    ).all()
    for muni, year, value, highest in rows:
        if highest is not None and highest > value:
            out.append(
                f"municipality #{muni}: permit {year}-{highest:04d} exists "
                f"but the {year} counter is at {value}"
            )
    missing = conn.execute(
        text(
            "SELECT COUNT(*) FROM permit p LEFT JOIN permit_listing l ON l.permit_id = p.id "
            "WHERE l.permit_id IS NULL"
        )
    ).scalar_one()
    if missing:
        out.append(f"{missing} permits are missing from the search index")
    out.extend(_cashiering_checks(conn))
    out.extend(_series_checks(conn))
    out.extend(_audit_checks(conn))
    from db.journal_check import journal_problems  # skips the tables an older schema lacks

    out.extend(journal_problems(conn))
    return out


# Numbers "regularly numbered in the order of their issue": gapless per municipality and year.
_SERIES = (
    ("permit", "number", "permit", r"(\d{4})-(\d{4,})"),
    ("payment", "receipt_number", "receipt", r"(\d{4})-(\d{4,})"),
    ("occupancy_certificate", "number", "certificate of occupancy", r"(\d{4})-(\d{4,})"),
    ("city_licence", "number", "City licence", r"EL-(\d{4})-(\d{4,})"),
)
_SHOWN = 5  # problems shown per kind; the rest are counted


def _series_checks(conn: object) -> list[str]:
    """Gaps and duplicates in each numbered series. Numbering may start above 1 (an office
    that started mid-year continues its paper book), so a gap is a missing number between the
    year's first and last."""
    import re
    from itertools import pairwise

    from sqlalchemy import Connection

    assert isinstance(conn, Connection)
    tables = set(inspect(conn).get_table_names())
    out: list[str] = []
    for table, column, what, pattern in _SERIES:
        if table not in tables:
            continue
        form = re.compile(pattern)
        seen: dict[tuple[int, int], list[int]] = {}
        odd: list[str] = []
        for muni, number in conn.execute(
            text(f"SELECT municipality_id, {column} FROM {table} WHERE {column} IS NOT NULL")
        ):
            m = form.fullmatch(number)
            if m is None:
                odd.append(number)
                continue
            seen.setdefault((muni, int(m.group(1))), []).append(int(m.group(2)))
        if odd:
            out.append(f"{len(odd)} {what} numbers are not in the usual form: {odd[:_SHOWN]}")
        prefix = "EL-" if table == "city_licence" else ""
        for (muni, year), seqs in sorted(seen.items()):
            seqs.sort()
            twice = sorted({a for a, b in pairwise(seqs) if a == b})
            missing = sorted(set(range(seqs[0], seqs[-1] + 1)) - set(seqs))
            for label, found in (("used more than once", twice), ("missing", missing)):
                if not found:
                    continue
                shown = ", ".join(f"{prefix}{year}-{n:04d}" for n in found[:_SHOWN])
                more = f" and {len(found) - _SHOWN} more" if len(found) > _SHOWN else ""
                out.append(f"municipality #{muni}: {what} number {label}: {shown}{more}")
    return out


def _audit_checks(conn: object) -> list[str]:
    """The audit trail's hash chain (db/audit_chain.py): the first row that does not follow."""
    from sqlalchemy import Connection

    from db.audit_chain import breaks

    assert isinstance(conn, Connection)
    columns = {c["name"] for c in inspect(conn).get_columns("audit_event")}
    if "row_hash" not in columns:
        return []  # an older schema: the upgrade hashes the rows
    found = list(breaks(conn))
    if not found:
        return []
    first = found[0]
    if first.missing:
        what = f"audit trail: row {first.row_id} has no hash (it was not written by Permit Desk)"
    else:
        what = (
            f"audit trail: row {first.row_id} was changed or removed after it was written "
            "(its hash does not follow from the row before)"
        )
    if len(found) > 1:
        what += f"; {len(found) - 1} later rows do not follow either"
    return [what]


def _cashiering_checks(conn: object) -> list[str]:
    """Receipts (revision 0007): the counter is not behind the highest receipt number, and each
    receipt's GL entries add up to its amount."""
    from sqlalchemy import Connection

    assert isinstance(conn, Connection)
    if "payment" not in inspect(conn).get_table_names():
        return []
    out: list[str] = []
    rows = conn.execute(
        text(
            "SELECT c.municipality_id, c.year, c.value, "
            "(SELECT MAX(CAST(SUBSTR(p.receipt_number, 6) AS INTEGER)) FROM payment p "
            " WHERE p.municipality_id = c.municipality_id "
            " AND p.receipt_number LIKE CAST(c.year AS VARCHAR(4)) || '-%') "
            "FROM number_counter c WHERE c.series = 'R'"
        )
    ).all()
    for muni, year, value, highest in rows:
        if highest is not None and highest > value:
            out.append(
                f"municipality #{muni}: receipt {year}-{highest:04d} exists "
                f"but the {year} receipt counter is at {value}"
            )
    unbalanced = conn.execute(
        text(
            "SELECT p.receipt_number FROM payment p WHERE p.method <> 'credit' AND p.amount <> "
            "(SELECT COALESCE(SUM(e.amount), 0) FROM gl_entry e "
            " WHERE e.payment_id = p.id AND e.reversal_id IS NULL) ORDER BY p.id"
        )
    ).all()
    for (number,) in unbalanced[:10]:
        out.append(f"receipt {number}: its GL entries do not add up to its amount")
    return out
