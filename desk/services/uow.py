"""The unit of work a service runs in (Architecture Patterns with Python, ch. 6).

It rolls back unless committed. db/uow.py implements it on SQLAlchemy; the audit trail and the
search index are written by that implementation in the same transaction as the change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime
from decimal import Decimal
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from desk.domain.cashiering import EntrySource
from desk.domain.checklists import ChecklistItem, ChecklistReopening
from desk.domain.documents import Letterhead
from desk.domain.enums import CredentialKind, PartyRole, PermitStatus
from desk.domain.model import (
    Actor,
    BondRecord,
    CorrectionOrderRecord,
    Credential,
    DataImport,
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
from desk.enforcement.model import EnforcementCase, Notice
from desk.fees.model import AssessedLine, ScheduleVersion, StoredVersion

if TYPE_CHECKING:  # the parcel import's types: its module is read only when a file is
    from desk.imports.parcels import ImportPlan, RegisterParcel
    from desk.services.tokens import TokenRepository  # it imports this module

T = TypeVar("T")


class Repository(Protocol[T]):
    def get(self, id: int) -> T | None: ...

    def get_for_update(self, id: int) -> T | None:
        """The record, its row locked until the transaction ends: a service that decides on
        a record takes it this way before it checks the rule."""
        ...

    def add(self, obj: T) -> None: ...


class MunicipalityRepository(Repository[Municipality], Protocol):
    def by_key(self, key: str) -> Municipality | None: ...

    def all(self) -> list[Municipality]: ...

    def letterhead_as_of(self, id: int, at: datetime | date | None) -> Letterhead:
        """The letterhead a document of the municipality dated `at` prints (None: now)."""
        ...


class UserRepository(Repository[User], Protocol):
    def by_username(self, username: str, *, lock: bool = False) -> User | None:
        """`lock`: the row locked until the transaction ends (PostgreSQL)."""
        ...

    def count(self) -> int:
        """People: the built-in command-line actor is not counted."""
        ...

    def administrators_for_update(self) -> list[User]:
        """Every user with the administrator role (people only), locked."""
        ...


class ParcelRepository(Repository[Parcel], Protocol):
    def by_pin(self, municipality_id: int, pin: str) -> Parcel | None:
        """The municipality's parcel with this PIN, compared as the unique constraint does."""
        ...


class PartyRepository(Repository[Party], Protocol):
    def find_by_name(self, name: str) -> list[Party]:
        """People and organizations with this name (case and spacing aside), oldest first."""
        ...

    def find_by_credential(self, kind: CredentialKind, number: str) -> list[Party]:
        """Those holding a current credential of this kind and number (case aside)."""
        ...


class PermitRepository(Repository[Permit], Protocol):
    def by_number(self, municipality_id: int, number: str) -> Permit | None: ...

    def active(self, municipality_id: int) -> list[Permit]:
        """Issued, work started or on hold: the permits whose deadlines run."""
        ...


class FeeRepository(Protocol):
    def versions(self, municipality_id: int) -> list[ScheduleVersion]:
        """Every version of the municipality's schedule, with `id` and `read_only` set."""
        ...

    def add_version(self, stored: StoredVersion) -> None: ...

    def add_line(self, line: AssessedLine) -> None: ...

    def lines_for(self, permit_id: int) -> list[AssessedLine]: ...

    def count_for_party(
        self,
        municipality_id: int,
        code: str,
        party_id: int,
        roles: tuple[PartyRole, ...],
        without: PartyRole | None = None,
    ) -> int:
        """Lines of `code` on the municipality's permits where the party holds one of `roles`
        (and, with `without`, that have nobody in that role)."""
        ...


class ChecklistRepository(Protocol):
    def for_permit(self, permit_id: int) -> list[ChecklistItem]:
        """The permit's checklist rows in the order they were opened."""
        ...

    def add(self, item: ChecklistItem) -> None: ...

    def reopenings(self, permit_id: int) -> list[ChecklistReopening]:
        """The times the issued permit's checklist was reopened, oldest first."""
        ...

    def add_reopening(self, reopening: ChecklistReopening) -> None: ...


class CashRepository(Protocol):
    """The cashiering rows (desk/domain/model.py). Rows are found by equality of their
    fields; `None` matches an empty field."""

    def lock(self, municipality_id: int) -> None:
        """Serialize the municipality's cashiering writes until the transaction ends (a row lock
        on PostgreSQL; SQLite's writing transactions hold the write lock already)."""
        ...

    def add(self, obj: object) -> None: ...

    def get(self, cls: type[T], id: int) -> T | None: ...

    def find(self, cls: type[T], **equals: Any) -> list[T]:
        """Rows of `cls` whose fields equal the given values, oldest first."""
        ...

    def in_period(self, cls: type[T], municipality_id: int, start: date, end: date) -> list[T]:
        """Rows of `cls` (which has municipality_id and day) with start <= day <= end."""
        ...

    def gl_opening(self, municipality_id: int, before: date) -> dict[int, Decimal]:
        """Account id → the sum of its entries dated before `before`."""
        ...

    def gl_sums(
        self, municipality_id: int, start: date, end: date
    ) -> list[tuple[int, EntrySource, Decimal]]:
        """(account id, source, sum) of the entries dated within the period."""
        ...

    def credit_balance(self, municipality_id: int, payer_key: str) -> Decimal: ...


class InspectionRepository(Protocol):
    """Inspections, the inspector's exceptions, correction orders and certificates of occupancy
    (desk/domain/model.py), oldest first."""

    def add(self, obj: object) -> None: ...

    def get(self, id: int) -> Inspection | None: ...

    def for_permit(self, permit_id: int) -> list[Inspection]:
        """The permit's inspections in the order they were requested."""
        ...

    def route(self, inspector_id: int, day: date) -> list[Inspection]:
        """The inspector's scheduled (and done) inspections of the day, in route order."""
        ...

    def exceptions_for(self, permit_id: int) -> list[InspectionException]: ...

    def order(self, id: int) -> CorrectionOrderRecord | None: ...

    def orders_for(self, permit_id: int) -> list[CorrectionOrderRecord]: ...

    def certificates_for(self, permit_id: int) -> list[OccupancyCertificate]: ...

    def certificates_with_temporary(self, municipality_id: int) -> list[OccupancyCertificate]:
        """Every certificate of the permits that ever had a temporary one, in order of issue."""
        ...


class RowRepository(Protocol):
    """Adds, gets and finds rows of any mapped class: registers with no queries of their own
    (city licences and condemnations)."""

    def add(self, obj: object) -> None: ...

    def get(self, cls: type[T], id: int) -> T | None: ...

    def find(self, cls: type[T], **equals: Any) -> list[T]:
        """Rows of `cls` whose fields equal the given values, oldest first."""
        ...

    def latest(self, cls: type[T], field: str) -> T | None:
        """The row of `cls` with the greatest `field` (None when there is none)."""
        ...


class SuretyRepository(RowRepository, Protocol):
    """Bonds, insurance certificates, street deposits and permits' surety facts."""

    def bonds_for_permit(self, permit_id: int) -> list[BondRecord]:
        """The bonds that name the permit among those they cover."""
        ...

    def bonds_of(
        self, municipality_id: int, party_ids: set[int], names: set[str]
    ) -> list[BondRecord]:
        """Bonds whose principal is one of these parties, or has one of these names (folded)."""
        ...

    def certificates_of(
        self, municipality_id: int, party_ids: set[int], names: set[str]
    ) -> list[InsuranceCertificateRecord]:
        """Certificates whose insured is one of these parties or names, and associations'
        certificates that list one of them among their members."""
        ...

    def deposits_for(self, permit_id: int) -> list[StreetDeposit]: ...

    def permits_of(
        self,
        municipality_id: int,
        party_ids: set[int],
        names: set[str],
        roles: tuple[PartyRole, ...],
        statuses: tuple[PermitStatus, ...],
    ) -> list[Permit]:
        """Permits in these statuses on which one of these parties (or names, folded) holds one
        of `roles`."""
        ...


class EnforcementRepository(RowRepository, Protocol):
    """Code enforcement's rows (desk/enforcement/model.py); `get` locks in a writing unit."""

    def open_case_on(self, municipality_id: int, parcel_id: int) -> EnforcementCase | None:
        """The parcel's open case (not closed), if any, locked in a writing unit of work."""
        ...

    def notices_awaiting_order(self, municipality_id: int, served_by: date) -> list[Notice]:
        """Notices of violation (140-3A) of open cases with no order, no Council decision and no
        timely petition standing, served (not withdrawn, not returned) on some addressee on or
        before `served_by`, oldest first: the candidates the sweep checks in full."""
        ...


class RecordRepository(Protocol):
    """Parcels and people as records (db/records.py): what points at one, and moving all of it
    to another record in a merge."""

    def references(self, entity: str, record_id: int) -> list[Reference]:
        """What points at the parcel ("parcel") or person ("party"), in words."""
        ...

    def move(self, entity: str, from_id: int, to_id: int) -> int:
        """Point every reference to `from_id` at `to_id` (audited); how many rows moved."""
        ...


class ImportRepository(Protocol):
    """Imports of the office's data in bulk (db/parcel_import.py)."""

    def register_parcels(self, municipality_id: int) -> list[RegisterParcel]:
        """Every parcel of the municipality as an import compares it."""
        ...

    def apply_parcels(
        self,
        municipality_id: int,
        plan: ImportPlan,
        register: Mapping[int, RegisterParcel],
        record: DataImport,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> int:
        """Write the plan's new and changed parcels with their audit rows; the import's id."""
        ...


class NumberAllocator(Protocol):
    def next(self, municipality_id: int, series: str, year: int) -> int:
        """The next number of the series, inside the current transaction (gapless)."""
        ...


class UnitOfWork(Protocol):
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
    registers: RowRepository  # city licences and condemnations
    enforcement: EnforcementRepository  # code enforcement (Hudson 140-3)
    records: RecordRepository  # parcels and people: references and merges
    imports: ImportRepository  # the county's parcel file, in bulk
    tokens: TokenRepository  # sign-in tokens for scripted set-ups (desk/services/tokens.py)
    # A register opened for looking only (a copy on a CD): act_as refuses every change.
    read_only: bool

    def __enter__(self) -> UnitOfWork: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def act_as(self, actor: Actor | None, at: datetime) -> None:
        """Who and when, for the audit rows written with this transaction's changes; refuses
        (SignedOut) an actor disabled or given other roles since signing in."""
        ...

    def last_change(self, record: object) -> tuple[str, datetime] | None:
        """Who last changed the record (their full name) and when, from the audit trail."""
        ...

    def record_event(
        self, entity: str, entity_id: int, action: str, changes: list[dict[str, str | None]]
    ) -> None:
        """An audit row for an event that changes no record (a sign-in refused for an unknown
        user name), by the actor and at the time act_as named."""
        ...

    def serialise(self, name: str) -> None:
        """Wait, until this transaction ends, for others serialised on `name`: a first-use
        import checks "loaded yet?" after this, so it sees the other's rows and loads none."""
        ...

    def flush(self) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...
