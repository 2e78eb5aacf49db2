"""SQLAlchemy unit of work: one Session per user action; rolls back unless committed."""

from __future__ import annotations

import contextlib
import hashlib
import weakref
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sqlalchemy import Engine, Table, event, func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, class_mapper, selectinload, sessionmaker

from db import audit_chain, letterheads, records, schema, tracking
from db.numbering import next_number
from db.token_queries import TokenRepo
from desk.domain import duplicates
from desk.domain.cashiering import AdjustmentSource, EntrySource
from desk.domain.checklists import ChecklistItem, ChecklistReopening
from desk.domain.documents import Letterhead
from desk.domain.enums import CredentialKind, PartyRole, PermitStatus, Role
from desk.domain.lifecycle import ACTIVE
from desk.domain.model import (
    Actor,
    BondRecord,
    CorrectionOrderRecord,
    Credential,
    DataImport,
    GlAccount,
    Inspection,
    InspectionException,
    InsuranceCertificateRecord,
    Municipality,
    OccupancyCertificate,
    Parcel,
    Party,
    Permit,
    StreetDeposit,
    User,
)
from desk.domain.records import Reference
from desk.enforcement.model import EnforcementCase, Notice, NoticeKind
from desk.errors import DeskError, ReadOnlyRegister, SignedOut
from desk.fees.loader import version_from_dict
from desk.fees.model import AssessedLine, ScheduleVersion, StoredVersion
from desk.services.tokens import TokenRepository
from desk.services.uow import (
    CashRepository,
    ChecklistRepository,
    EnforcementRepository,
    FeeRepository,
    ImportRepository,
    InspectionRepository,
    MunicipalityRepository,
    NumberAllocator,
    ParcelRepository,
    PartyRepository,
    PermitRepository,
    RecordRepository,
    Repository,
    RowRepository,
    SuretyRepository,
    UserRepository,
)

if TYPE_CHECKING:  # read when a file is imported, not on every start
    from desk.imports.parcels import ImportPlan, RegisterParcel

T = TypeVar("T")


# What became of the work when an exception left a unit of work, set on the exception for the
# window's error dialog (outcome()): the transaction rolled back, had committed before the
# error, or lost its server during COMMIT (the server may or may not have committed).
NOT_SAVED, SAVED, UNKNOWN = "not saved", "saved", "unknown"
_OUTCOME = "permitdesk_outcome"


def outcome(exc: BaseException) -> str | None:
    """NOT_SAVED, SAVED or UNKNOWN for an exception raised in a unit of work, else None."""
    return getattr(exc, _OUTCOME, None)


def _mark(exc: BaseException, what: str) -> None:
    if outcome(exc) is None:  # the innermost unit of work knows best
        with contextlib.suppress(AttributeError):  # a type that takes no attributes
            setattr(exc, _OUTCOME, what)


_WRITING = "permitdesk.writing"
_LOCKED = "permitdesk.locked"


def locked_get(session: Session, cls: type[T], id: int) -> T | None:
    """The row locked until the transaction ends, read afresh (PostgreSQL FOR UPDATE: a second
    workstation deciding on it waits, then sees this one's result; SQLite's writing transaction
    began IMMEDIATE already). Once per row and transaction: later reads use the same object."""
    locked: set[tuple[type, int]] = session.info.setdefault(_LOCKED, set())
    if (cls, id) in locked:
        return session.get(cls, id)
    # OF the record's own table: its eagerly joined rows (outer joins) cannot be locked.
    table = class_mapper(cls).local_table
    row = session.get(cls, id, with_for_update={"of": table}, populate_existing=True)
    locked.add((cls, id))
    return row


def fetch(session: Session, cls: type[T], id: int) -> T | None:
    """Every repository's get: in a transaction that writes (act_as has named who acts), the
    row a service reads is the row it decides on, so it is locked and read afresh; nothing a
    service does can skip the lock. Readers take no lock."""
    if session.info.get(_WRITING):
        return locked_get(session, cls, id)
    return session.get(cls, id)


# The unique constraints a service checks before it inserts, and the words of that check: a
# duplicate that still reaches the database (a writer that skipped the check) reads the same.
_UNIQUE: tuple[tuple[type[Any], Table, tuple[str, ...], Callable[[Any], DeskError]], ...] = (
    (Parcel, schema.parcel, ("municipality_id", "pin"), duplicates.parcel_exists),
    (GlAccount, schema.gl_account, ("municipality_id", "number"), duplicates.gl_account_exists),
    (User, schema.app_user, ("username",), duplicates.username_taken),
)


def _violates(e: IntegrityError, table: str, columns: tuple[str, ...]) -> bool:
    """Whether `e` is the unique constraint on these columns of the table (by the driver's
    words: PostgreSQL names the key in its detail, SQLite the columns in its message)."""
    diag = getattr(e.orig, "diag", None)
    if diag is not None:
        detail = diag.message_detail or ""
        return diag.table_name == table and detail.startswith(f"Key ({', '.join(columns)})=")
    return str(e.orig) == f"UNIQUE constraint failed: {', '.join(f'{table}.{c}' for c in columns)}"


_PENDING = "permitdesk.pending"


def _remember_pending(session: Session, _context: object, _instances: object) -> None:
    session.info[_PENDING] = list(session.new)


def _duplicate(session: Session, e: IntegrityError) -> DeskError | None:
    """The service's words for a unique constraint the flush hit, naming the record already
    saved; None for any other integrity error. Rolls the session back to read that record."""
    for cls, table, columns, words in _UNIQUE:
        if not _violates(e, table.name, columns):
            continue
        # The rows the failed flush tried to add (it leaves session.new empty).
        pending = session.info.get(_PENDING, [])
        keys = [{c: getattr(o, c) for c in columns} for o in pending if isinstance(o, cls)]
        session.rollback()
        for key in keys:
            existing = session.scalars(select(cls).filter_by(**key)).first()
            if existing is not None:
                return words(existing)
        return None
    return None


class SqlRepository(Generic[T]):
    def __init__(self, session: Session, cls: type[T]) -> None:
        self.session = session
        self.cls = cls

    def get(self, id: int) -> T | None:
        return fetch(self.session, self.cls, id)

    def get_for_update(self, id: int) -> T | None:
        return locked_get(self.session, self.cls, id)

    def add(self, obj: T) -> None:
        self.session.add(obj)


class MunicipalityRepo(SqlRepository[Municipality]):
    def by_key(self, key: str) -> Municipality | None:
        return self.session.scalars(select(Municipality).filter_by(key=key)).first()

    def all(self) -> list[Municipality]:
        return list(self.session.scalars(select(Municipality).order_by(Municipality.id)))  # type: ignore[arg-type]

    def letterhead_as_of(self, id: int, at: datetime | date | None) -> Letterhead:
        return letterheads.letterhead_as_of(self.session.connection(), id, at)


class UserRepo(SqlRepository[User]):
    def by_username(self, username: str, *, lock: bool = False) -> User | None:
        query = select(User).filter_by(username=username)
        return self.session.scalars(query.with_for_update() if lock else query).first()

    def count(self) -> int:
        u = schema.app_user
        return int(
            self.session.scalar(select(func.count()).select_from(u).where(u.c.system.is_(False)))
            or 0
        )

    def administrators_for_update(self) -> list[User]:
        u = schema.app_user
        return list(
            self.session.scalars(
                select(User)
                .where(u.c.system.is_(False) & u.c.roles.contains("administrator"))
                .order_by(u.c.id)
                .with_for_update()
            )
        )


class ParcelRepo(SqlRepository[Parcel]):
    def by_pin(self, municipality_id: int, pin: str) -> Parcel | None:
        return self.session.scalars(
            select(Parcel).filter_by(municipality_id=municipality_id, pin=pin)
        ).first()


def casefolded(session: Session, column: Any, text: str) -> Any:
    """`column` equals `text` with case folded as a person reads it: Unicode on both backends
    (SQLite's own lower() folds ASCII only; db.engine gives it casefold())."""
    wanted = " ".join(text.split())
    if session.get_bind().dialect.name == "sqlite":
        return func.casefold(column) == wanted.casefold()
    return func.lower(column) == wanted.lower()


class PartyRepo(SqlRepository[Party]):
    def find_by_name(self, name: str) -> list[Party]:
        pa = schema.party
        return list(
            self.session.scalars(
                select(Party).where(casefolded(self.session, pa.c.name, name)).order_by(pa.c.id)
            )
        )

    def find_by_credential(self, kind: CredentialKind, number: str) -> list[Party]:
        c = schema.credential
        ids = select(c.c.party_id).where(
            (c.c.kind == kind.value)
            & casefolded(self.session, c.c.number, number)
            & c.c.superseded_by_id.is_(None)
        )
        return list(
            self.session.scalars(
                select(Party).where(schema.party.c.id.in_(ids)).order_by(schema.party.c.id)
            )
        )


class PermitRepo(SqlRepository[Permit]):
    def by_number(self, municipality_id: int, number: str) -> Permit | None:
        return self.session.scalars(
            select(Permit).filter_by(municipality_id=municipality_id, number=number)
        ).first()

    def active(self, municipality_id: int) -> list[Permit]:
        p = schema.permit
        return list(
            self.session.scalars(
                select(Permit)
                .where(
                    (p.c.municipality_id == municipality_id)
                    & p.c.status.in_([s.value for s in ACTIVE])
                )
                .options(selectinload(Permit.extensions))  # type: ignore[arg-type]
                .order_by(p.c.id)
            ).unique()
        )


class FeeRepo:
    def __init__(self, session: Session) -> None:
        self.session = session

    def versions(self, municipality_id: int) -> list[ScheduleVersion]:
        muni = self.session.get(Municipality, municipality_id)
        assert muni is not None
        stored = self.session.scalars(
            select(StoredVersion)
            .filter_by(municipality_id=municipality_id)
            .order_by(schema.fee_schedule_version.c.effective_from)
        ).all()
        fl = schema.permit_fee_line
        used = set(
            self.session.scalars(
                select(fl.c.version_id)
                .where(fl.c.version_id.in_([s.id for s in stored]))
                .distinct()
            )
        )
        out = []
        for s in stored:
            v = version_from_dict(f"database version #{s.id}", muni.ordinance, dict(s.data))
            out.append(
                replace(
                    v,
                    id=s.id,
                    read_only=s.id in used,
                    read_only_reason="it has priced permits; make a new version from a date"
                    if s.id in used
                    else "",
                )
            )
        return out

    def add_version(self, stored: StoredVersion) -> None:
        self.session.add(stored)

    def add_line(self, line: AssessedLine) -> None:
        self.session.add(line)

    def lines_for(self, permit_id: int) -> list[AssessedLine]:
        return list(
            self.session.scalars(
                select(AssessedLine)
                .filter_by(permit_id=permit_id)
                .order_by(schema.permit_fee_line.c.id)
            )
        )

    def count_for_party(
        self,
        municipality_id: int,
        code: str,
        party_id: int,
        roles: tuple[PartyRole, ...],
        without: PartyRole | None = None,
    ) -> int:
        fl, p, pp = schema.permit_fee_line, schema.permit, schema.permit_party
        holders = select(pp.c.permit_id).where(
            (pp.c.party_id == party_id) & (pp.c.role.in_([r.value for r in roles]))
        )
        if without is not None:
            holders = holders.where(
                pp.c.permit_id.not_in(select(pp.c.permit_id).where(pp.c.role == without.value))
            )
        stmt = (
            select(func.count())
            .select_from(fl.join(p, p.c.id == fl.c.permit_id))
            .where(
                (p.c.municipality_id == municipality_id)
                & (fl.c.code == code)
                & (fl.c.permit_id.in_(holders))
            )
        )
        # Lines added after assessment (cashiering) count as well.
        fa = schema.fee_adjustment
        added = (
            select(func.count())
            .select_from(fa.join(p, p.c.id == fa.c.permit_id))
            .where(
                (p.c.municipality_id == municipality_id)
                & (fa.c.code == code)
                & (fa.c.source == AdjustmentSource.ADDED.value)
                & (fa.c.amount > 0)
                & (fa.c.permit_id.in_(holders))
            )
        )
        return int(self.session.execute(stmt).scalar_one()) + int(
            self.session.execute(added).scalar_one()
        )


class ChecklistRepo:
    def __init__(self, session: Session) -> None:
        self.session = session

    def for_permit(self, permit_id: int) -> list[ChecklistItem]:
        return list(
            self.session.scalars(
                select(ChecklistItem)
                .filter_by(permit_id=permit_id)
                .order_by(schema.permit_checklist_item.c.id)
            )
        )

    def add(self, item: ChecklistItem) -> None:
        self.session.add(item)

    def reopenings(self, permit_id: int) -> list[ChecklistReopening]:
        return list(
            self.session.scalars(
                select(ChecklistReopening)
                .filter_by(permit_id=permit_id)
                .order_by(schema.permit_checklist_reopening.c.id)
            )
        )

    def add_reopening(self, reopening: ChecklistReopening) -> None:
        self.session.add(reopening)


class CashRepo:
    """Implements desk.services.uow.CashRepository."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def lock(self, municipality_id: int) -> None:
        m = schema.municipality
        # FOR UPDATE on PostgreSQL; on SQLite the writing transaction began IMMEDIATE already.
        self.session.execute(select(m.c.id).where(m.c.id == municipality_id).with_for_update())

    def add(self, obj: object) -> None:
        self.session.add(obj)

    def get(self, cls: type[T], id: int) -> T | None:
        return fetch(self.session, cls, id)

    def find(self, cls: type[T], **equals: Any) -> list[T]:
        table = class_mapper(cls).local_table
        stmt = select(cls).filter_by(**equals).order_by(table.c.id)
        return list(self.session.scalars(stmt))

    def in_period(self, cls: type[T], municipality_id: int, start: date, end: date) -> list[T]:
        table = class_mapper(cls).local_table
        stmt = (
            select(cls)
            .where(
                (table.c.municipality_id == municipality_id)
                & (table.c.day >= start)
                & (table.c.day <= end)
            )
            .order_by(table.c.id)
        )
        return list(self.session.scalars(stmt))

    def gl_opening(self, municipality_id: int, before: date) -> dict[int, Decimal]:
        g = schema.gl_entry
        rows = self.session.execute(
            select(g.c.account_id, func.sum(g.c.amount))
            .where((g.c.municipality_id == municipality_id) & (g.c.day < before))
            .group_by(g.c.account_id)
        )
        # SUM keeps the column's Cents type: the totals come back as Decimal dollars.
        return {int(a): _dollars(total) for a, total in rows}

    def gl_sums(
        self, municipality_id: int, start: date, end: date
    ) -> list[tuple[int, EntrySource, Decimal]]:
        g = schema.gl_entry
        rows = self.session.execute(
            select(g.c.account_id, g.c.source, func.sum(g.c.amount))
            .where((g.c.municipality_id == municipality_id) & (g.c.day >= start) & (g.c.day <= end))
            .group_by(g.c.account_id, g.c.source)
        )
        return [(int(a), EntrySource(src), _dollars(total)) for a, src, total in rows]

    def credit_balance(self, municipality_id: int, payer_key: str) -> Decimal:
        c = schema.payer_credit
        total = self.session.execute(
            select(func.sum(c.c.amount)).where(
                (c.c.municipality_id == municipality_id) & (c.c.payer_key == payer_key)
            )
        ).scalar()
        return _dollars(total)


def _dollars(total: Decimal | None) -> Decimal:
    return (total or Decimal(0)).quantize(Decimal("0.01"))


class InspectionRepo:
    """Implements desk.services.uow.InspectionRepository."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, obj: object) -> None:
        self.session.add(obj)

    def get(self, id: int) -> Inspection | None:
        return fetch(self.session, Inspection, id)

    def for_permit(self, permit_id: int) -> list[Inspection]:
        i = schema.inspection
        return list(
            self.session.scalars(
                select(Inspection).filter_by(permit_id=permit_id).order_by(i.c.requested_at, i.c.id)
            )
        )

    def route(self, inspector_id: int, day: date) -> list[Inspection]:
        i = schema.inspection
        return list(
            self.session.scalars(
                select(Inspection)
                .filter_by(inspector_id=inspector_id, scheduled_on=day)
                .order_by(i.c.route_position.nulls_last(), i.c.id)
            )
        )

    def exceptions_for(self, permit_id: int) -> list[InspectionException]:
        return list(
            self.session.scalars(
                select(InspectionException)
                .filter_by(permit_id=permit_id)
                .order_by(schema.inspection_exception.c.id)
            )
        )

    def order(self, id: int) -> CorrectionOrderRecord | None:
        return fetch(self.session, CorrectionOrderRecord, id)

    def orders_for(self, permit_id: int) -> list[CorrectionOrderRecord]:
        return list(
            self.session.scalars(
                select(CorrectionOrderRecord)
                .filter_by(permit_id=permit_id)
                .order_by(schema.correction_order.c.id)
            )
        )

    def certificates_for(self, permit_id: int) -> list[OccupancyCertificate]:
        return list(
            self.session.scalars(
                select(OccupancyCertificate)
                .filter_by(permit_id=permit_id)
                .order_by(schema.occupancy_certificate.c.id)
            )
        )

    def certificates_with_temporary(self, municipality_id: int) -> list[OccupancyCertificate]:
        c = schema.occupancy_certificate
        temporary = select(c.c.permit_id).where(
            (c.c.municipality_id == municipality_id) & c.c.temporary_until.is_not(None)
        )
        return list(
            self.session.scalars(
                select(OccupancyCertificate).where(c.c.permit_id.in_(temporary)).order_by(c.c.id)
            )
        )


class RowRepo:
    """Implements desk.services.uow.RowRepository."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, obj: object) -> None:
        self.session.add(obj)

    def get(self, cls: type[T], id: int) -> T | None:
        return fetch(self.session, cls, id)

    def find(self, cls: type[T], **equals: Any) -> list[T]:
        table = class_mapper(cls).local_table
        return list(self.session.scalars(select(cls).filter_by(**equals).order_by(table.c.id)))

    def latest(self, cls: type[T], field: str) -> T | None:
        table = class_mapper(cls).local_table
        order = (table.c[field].desc(), table.c.id.desc())
        return self.session.scalars(select(cls).order_by(*order).limit(1)).first()


class SuretyRepo(RowRepo):
    """Implements desk.services.uow.SuretyRepository."""

    def bonds_for_permit(self, permit_id: int) -> list[BondRecord]:
        b, bp = schema.bond, schema.bond_permit
        linked = select(bp.c.bond_id).where(bp.c.permit_id == permit_id)
        return list(
            self.session.scalars(select(BondRecord).where(b.c.id.in_(linked)).order_by(b.c.id))
        )

    def bonds_of(
        self, municipality_id: int, party_ids: set[int], names: set[str]
    ) -> list[BondRecord]:
        b = schema.bond
        who = b.c.principal_party_id.in_(party_ids) | func.lower(b.c.principal).in_(names)
        return list(
            self.session.scalars(
                select(BondRecord)
                .where((b.c.municipality_id == municipality_id) & who)
                .order_by(b.c.id)
            )
        )

    def certificates_of(
        self, municipality_id: int, party_ids: set[int], names: set[str]
    ) -> list[InsuranceCertificateRecord]:
        c, m = schema.insurance_certificate, schema.association_member
        members = select(m.c.certificate_id).where(
            m.c.party_id.in_(party_ids) | func.lower(m.c.name).in_(names)
        )
        own = (~c.c.association) & (
            c.c.insured_party_id.in_(party_ids) | func.lower(c.c.insured).in_(names)
        )
        return list(
            self.session.scalars(
                select(InsuranceCertificateRecord)
                .where(
                    (c.c.municipality_id == municipality_id)
                    & (own | (c.c.association & c.c.id.in_(members)))
                )
                .order_by(c.c.id)
            )
        )

    def deposits_for(self, permit_id: int) -> list[StreetDeposit]:
        return self.find(StreetDeposit, permit_id=permit_id)

    def permits_of(
        self,
        municipality_id: int,
        party_ids: set[int],
        names: set[str],
        roles: tuple[PartyRole, ...],
        statuses: tuple[PermitStatus, ...],
    ) -> list[Permit]:
        p, pp, pa = schema.permit, schema.permit_party, schema.party
        holders = (
            select(pp.c.permit_id)
            .join(pa, pa.c.id == pp.c.party_id)
            .where(
                pp.c.role.in_([r.value for r in roles])
                & (pa.c.id.in_(party_ids) | func.lower(pa.c.name).in_(names))
            )
        )
        return list(
            self.session.scalars(
                select(Permit)
                .where(
                    (p.c.municipality_id == municipality_id)
                    & p.c.status.in_([s.value for s in statuses])
                    & p.c.id.in_(holders)
                )
                .order_by(p.c.id)
            )
        )


class EnforcementRepo(RowRepo):
    """Implements desk.services.uow.EnforcementRepository."""

    def open_case_on(self, municipality_id: int, parcel_id: int) -> EnforcementCase | None:
        c = schema.enforcement_case
        case_id = self.session.scalar(
            select(c.c.id)
            .where(
                (c.c.municipality_id == municipality_id)
                & (c.c.parcel_id == parcel_id)
                & c.c.closed_on.is_(None)
            )
            .order_by(c.c.id)
            .limit(1)
        )
        return None if case_id is None else fetch(self.session, EnforcementCase, case_id)

    def notices_awaiting_order(self, municipality_id: int, served_by: date) -> list[Notice]:
        n, c, o = schema.enforcement_notice, schema.enforcement_case, schema.enforcement_order
        a, s = schema.enforcement_addressee, schema.enforcement_service
        p = schema.enforcement_petition
        # A narrowing only, so the sweep does not lock and read every notice ever issued: the
        # rule itself (desk.enforcement.rules.due_for_order) decides on each candidate.
        served = (
            select(s.c.id)
            .join(a, a.c.id == s.c.addressee_id)
            .where(
                (a.c.notice_id == n.c.id)
                & (s.c.served_on <= served_by)
                & s.c.withdrawn_on.is_(None)
            )
            .exists()
        )
        petitioned = (
            select(p.c.id)
            .where((p.c.notice_id == n.c.id) & p.c.timely & p.c.withdrawn_on.is_(None))
            .exists()
        )
        return list(
            self.session.scalars(
                select(Notice)
                .join(c, c.c.id == n.c.case_id)
                .where(
                    (c.c.municipality_id == municipality_id)
                    & c.c.closed_on.is_(None)
                    & (n.c.kind == NoticeKind.NOTICE.value)
                    & n.c.decision.is_(None)
                    # a set-aside order is no order, but its notice had a timely petition
                    & ~select(o.c.id).where(o.c.notice_id == n.c.id).exists()
                    & served
                    & ~petitioned
                )
                .order_by(n.c.id)
            )
        )


class RecordRepo:
    def __init__(self, session: Session) -> None:
        self.session = session

    def references(self, entity: str, record_id: int) -> list[Reference]:
        return records.references(self.session, entity, record_id)

    def move(self, entity: str, from_id: int, to_id: int) -> int:
        return records.move(self.session, entity, from_id, to_id)


class ImportRepo:
    def __init__(self, session: Session) -> None:
        self.session = session

    def register_parcels(self, municipality_id: int) -> list[RegisterParcel]:
        from db import parcel_import

        return parcel_import.register_parcels(self.session.connection(), municipality_id)

    def apply_parcels(
        self,
        municipality_id: int,
        plan: ImportPlan,
        register: Mapping[int, RegisterParcel],
        record: DataImport,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> int:
        from db import parcel_import

        return parcel_import.apply_plan(
            self.session, municipality_id, plan, register, record, progress, cancelled
        )


class SessionNumbers:
    def __init__(self, session: Session) -> None:
        self.session = session

    def next(self, municipality_id: int, series: str, year: int) -> int:
        return next_number(self.session.connection(), municipality_id, series, year)


_FACTORIES: weakref.WeakKeyDictionary[Engine, sessionmaker[Session]] = weakref.WeakKeyDictionary()


def _session_factory(engine: Engine) -> sessionmaker[Session]:
    """One session factory per engine, its listeners installed once: a factory per unit of
    work made a Session subclass each time, and every listener added walked them all."""
    factory = _FACTORIES.get(engine)
    if factory is None:
        factory = sessionmaker(bind=engine, expire_on_commit=False)
        tracking.install(factory)
        event.listen(factory, "before_flush", _remember_pending)
        _FACTORIES[engine] = factory
    return factory


class SqlUnitOfWork:
    """Implements desk.services.uow.UnitOfWork."""

    municipalities: MunicipalityRepository
    parcels: ParcelRepository
    parties: PartyRepository
    credentials: Repository[Credential]
    permits: PermitRepository
    users: UserRepository
    fees: FeeRepository
    numbers: NumberAllocator
    checklists: ChecklistRepository
    cash: CashRepository
    inspections: InspectionRepository
    sureties: SuretyRepository
    registers: RowRepository
    enforcement: EnforcementRepository
    records: RecordRepository
    imports: ImportRepository
    tokens: TokenRepository

    def __init__(
        self,
        engine: Engine,
        on_signed_out: Callable[[str], None] | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        self.engine = engine
        self.on_signed_out = on_signed_out
        self.read_only = read_only
        self._factory = _session_factory(engine)
        self.session: Session | None = None
        self._committed = False  # in the current `with` block, before any exception

    def __enter__(self) -> SqlUnitOfWork:
        s = self._factory()
        self.session = s
        self._committed = False
        self.municipalities = MunicipalityRepo(s, Municipality)
        self.users = UserRepo(s, User)
        self.parcels = ParcelRepo(s, Parcel)
        self.parties = PartyRepo(s, Party)
        self.credentials = SqlRepository(s, Credential)
        self.permits = PermitRepo(s, Permit)
        self.fees = FeeRepo(s)
        self.numbers = SessionNumbers(s)
        self.checklists = ChecklistRepo(s)
        self.cash = CashRepo(s)
        self.inspections = InspectionRepo(s)
        self.sureties = SuretyRepo(s)
        self.registers = RowRepo(s)
        self.enforcement = EnforcementRepo(s)
        self.records = RecordRepo(s)
        self.imports = ImportRepo(s)
        self.tokens = TokenRepo(s)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self.session is not None
        if exc is not None:
            _mark(exc, SAVED if self._committed else NOT_SAVED)
        try:
            duplicate = _duplicate(self.session, exc) if isinstance(exc, IntegrityError) else None
        finally:
            self.session.rollback()
            self.session.close()
            self.session = None
        if duplicate is not None and exc is not None:
            _mark(duplicate, outcome(exc) or NOT_SAVED)
            raise duplicate from exc

    def act_as(self, actor: Actor | None, at: datetime) -> None:
        """Who acts, for the audit trail; None only for the first start and shipped imports.

        The powers a service just checked are the actor's roles as of signing in: the user's
        row, read here before any change, must still be active with the same roles. A user
        disabled or given other roles meanwhile is refused at once, whatever the service. (Not
        share-locked: two administrators changing users would then deadlock each other; an
        action already past this check finishes, as one begun a moment earlier would.)"""
        assert self.session is not None
        if self.read_only:  # every service that writes says who acts first: refused here
            raise ReadOnlyRegister()
        # Every writer takes the audit chain's lock first, before any row lock: were it taken
        # at the first flush, after a row lock, two writers could each hold what the other
        # waits for (PostgreSQL; SQLite's writers are serial already).
        audit_chain.lock(self.session.connection())
        if actor is not None:
            u = schema.app_user
            row = self.session.execute(
                select(u.c.active, u.c.locked_at, u.c.roles).where(u.c.id == actor.user_id)
            ).first()
            reason = ""
            if row is None or not row.active:
                reason = SignedOut.MESSAGE
            elif row.locked_at is not None:
                reason = SignedOut.LOCKED
            elif frozenset(Role(r) for r in str(row.roles).split(",") if r) != actor.roles:
                reason = SignedOut.ROLES_CHANGED
            if reason:
                if self.on_signed_out is not None:
                    self.on_signed_out(reason)
                raise SignedOut(reason)
        self.session.info[tracking.ACTOR_KEY] = actor.user_id if actor is not None else None
        self.session.info[tracking.AT_KEY] = at
        self.session.info[_WRITING] = True

    def last_change(self, record: Any) -> tuple[str, datetime] | None:
        assert self.session is not None
        a, u = schema.audit_event, schema.app_user
        row = self.session.execute(
            select(func.coalesce(func.nullif(u.c.full_name, ""), u.c.username), a.c.at)
            .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
            .where(
                (a.c.entity == tracking.ENTITY_NAMES[type(record)]) & (a.c.entity_id == record.id)
            )
            .order_by(a.c.id.desc())
            .limit(1)
        ).first()
        if row is None:
            return None
        return (str(row[0]) if row[0] is not None else "the system"), row[1]

    def record_event(
        self, entity: str, entity_id: int, action: str, changes: list[dict[str, str | None]]
    ) -> None:
        assert self.session is not None
        info = self.session.info
        row = {
            "at": info[tracking.AT_KEY],
            "user_id": info[tracking.ACTOR_KEY],
            "entity": entity,
            "entity_id": entity_id,
            "permit_id": None,
            "action": action,
            "changes": changes,
        }
        audit_chain.append(self.session.connection(), [row])

    def serialise(self, name: str) -> None:
        """Wait until no other open transaction has serialised on `name` (PostgreSQL: an
        advisory lock released at commit or rollback). SQLite's writing transactions began
        IMMEDIATE and are serial already."""
        assert self.session is not None
        if self.session.get_bind().dialect.name == "postgresql":
            digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
            key = int.from_bytes(digest, "big", signed=True)
            self.session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})

    def flush(self) -> None:
        assert self.session is not None
        self.session.flush()

    def commit(self) -> None:
        assert self.session is not None
        self.session.flush()  # a failure here is before COMMIT: nothing saved
        try:
            self.session.commit()
        except DBAPIError as e:
            if e.connection_invalidated:  # the COMMIT was sent, its answer lost
                _mark(e, UNKNOWN)
            raise
        self._committed = True
        self.session.info.pop(_LOCKED, None)  # released with the transaction

    def rollback(self) -> None:
        assert self.session is not None
        self.session.rollback()
        self.session.info.pop(_LOCKED, None)
