"""Importing contractors from a spreadsheet (a CSV file or an Excel workbook, the template
Permit Desk writes or the office's own list): read it, show the dry run, then apply it in one
transaction. A cancelled or failed import leaves the register as it was.

The dry run shown and the import applied are computed the same way (desk.imports.contractors.
plan_contractors); the import computes it again inside its transaction, after waiting for any
other contractor import, so a person another workstation changed meanwhile is compared as they
are now. Every person and credential is written through the mapped records, so each change has
its audit row; a renewal supersedes the credential it replaces exactly as renew_credential does.
What was done is recorded (data_import, kind "contractors", with the file's SHA-256).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from desk.clock import Clock
from desk.domain.enums import CredentialKind
from desk.domain.model import Actor, Credential, DataImport, Party
from desk.domain.permissions import Permission, require
from desk.errors import NotFound, ValidationError
from desk.imports.contractors import (
    ContractorPlan,
    ParsedContractors,
    RegisterCredential,
    RegisterPerson,
    has_name_column,
    parse_contractor_rows,
    plan_contractors,
)
from desk.imports.files import ImportCancelled, ImportFileError, SourceFile
from desk.services.uow import UnitOfWork

KIND = "contractors"  # data_import.kind
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ContractorsImported:
    import_id: int
    plan: ContractorPlan  # what was applied


def contractor_sheet(source: SourceFile) -> str:
    """The sheet a workbook's contractors are on by default: 'Contractors' (the template's),
    else the first with a Name column, else the first."""
    for layer in source.layers:
        if layer.name.strip().casefold() == "contractors":
            return layer.name
    for layer in source.layers:
        if has_name_column(layer.columns):
            return layer.name
    return source.layers[0].name


def read_contractor_file(source: SourceFile, sheet: str | None = None) -> ParsedContractors:
    """The file's rows as contractors (ValidationError naming the file when it has no Name
    column; ImportFileError when it is not a CSV file or a workbook)."""
    if source.kind not in ("csv", "xlsx"):
        raise ImportFileError(
            f"{source.name} is a {source.format}; contractors are imported from a CSV file or "
            "an Excel workbook (.xlsx)"
        )
    named = any(has_name_column(layer.columns) for layer in source.layers)
    if source.kind == "xlsx" and not sheet and not named:
        # The template's sheet with nothing under its headings is not listed: it has no rows.
        raise ValidationError(
            source.name,
            "no sheet has rows under a Name heading; fill in the sheet Contractors, one "
            "row per contractor and credential",
        )
    layer = source.layer(sheet or contractor_sheet(source))
    several = source.kind == "xlsx" and len(source.layers) > 1
    where = f"{source.name}, sheet {layer.name}" if several else source.name
    return parse_contractor_rows(
        source.rows(layer.name), layer.columns, where, layer.name if source.kind == "xlsx" else ""
    )


def _credential(c: Credential) -> RegisterCredential:
    assert c.id is not None
    return RegisterCredential(c.id, c.kind, c.number, c.expires_on, c.superseded_by_id is None)


class _Register:
    """The register's people as the dry run compares them. In a writing unit of work each one
    found is locked (and read afresh) before its credentials are read, so nobody renews them
    between this import's comparison and its writes."""

    def __init__(self, uow: UnitOfWork) -> None:
        self.uow = uow
        self.seen: dict[int, RegisterPerson] = {}

    def _person(self, found: Party) -> RegisterPerson:
        assert found.id is not None
        if found.id in self.seen:
            return self.seen[found.id]
        party = self.uow.parties.get(found.id) or found  # locked when writing
        person = RegisterPerson(
            id=found.id,
            name=party.name,
            kind=party.kind,
            address_line1=party.address_line1,
            address_line2=party.address_line2,
            city=party.city,
            state=party.state,
            zip=party.zip,
            phone=party.phone,
            email=party.email,
            retired_on=party.retired_on,
            credentials=tuple(_credential(c) for c in party.credentials),
        )
        self.seen[found.id] = person
        return person

    def by_credential(self, kind: CredentialKind, number: str) -> Sequence[RegisterPerson]:
        return [self._person(p) for p in self.uow.parties.find_by_credential(kind, number)]

    def by_name(self, name: str) -> Sequence[RegisterPerson]:
        return [self._person(p) for p in self.uow.parties.find_by_name(name)]


def dry_run_contractors(uow: UnitOfWork, actor: Actor, parsed: ParsedContractors) -> ContractorPlan:
    """What importing `parsed` would do now (nothing is written)."""
    require(actor, Permission.IMPORT_DATA)
    with uow:
        return plan_contractors(parsed, _Register(uow))


def import_contractors(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    parsed: ParsedContractors,
    *,
    file_name: str,
    file_sha256: str,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ContractorsImported:
    """Apply the import in one transaction and record it; raises ImportCancelled between rows
    when `cancelled()` says so (nothing is written then)."""
    require(actor, Permission.IMPORT_DATA)
    if not parsed.rows and not parsed.rejected:
        raise ValidationError(file_name, "there are no rows of contractors to import")
    with uow:
        uow.act_as(actor, clock.now())
        # One contractor import at a time: the second waits and compares with the first's.
        uow.serialise("contractor import")
        if uow.municipalities.get(municipality_id) is None:
            raise NotFound(f"municipality #{municipality_id} does not exist")
        plan = plan_contractors(parsed, _Register(uow))
        total, done = plan.writes, 0

        def step() -> None:
            nonlocal done
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            done += 1
            if progress is not None:
                progress(done, total)

        today = clock.today()
        created: list[Party] = []
        for new in plan.new:
            p = new.person
            party = Party(
                kind=p.kind,
                name=p.name,
                address_line1=p.address_line1,
                address_line2=p.address_line2,
                city=p.city,
                state=p.state,
                zip=p.zip,
                phone=p.phone,
                email=p.email,
            )
            uow.parties.add(party)
            created.append(party)
            step()
        for changed in plan.changed:
            party = _party(uow, changed.party_id)
            for change in changed.changes:
                setattr(party, change.field, change.new)
            step()
        for added in plan.added:
            if added.party_id is not None:
                party = _party(uow, added.party_id)
            else:
                assert added.new_person is not None
                party = created[added.new_person]
            party.credentials.append(
                Credential(
                    kind=added.kind,
                    number=added.number,
                    expires_on=added.expires_on,
                    recorded_on=today,
                )
            )
            step()
        for renewal in plan.renewed:
            party = _party(uow, renewal.party_id)
            old = uow.credentials.get(renewal.credential_id)
            assert old is not None and old.superseded_by_id is None
            renewed = Credential(
                kind=old.kind,
                number=renewal.number,
                expires_on=renewal.expires_on,
                issuing_state=old.issuing_state,
                recorded_on=today,
            )
            party.credentials.append(renewed)
            uow.flush()
            old.superseded_by_id = renewed.id
            step()
        if cancelled is not None and cancelled():
            raise ImportCancelled()
        record = DataImport(
            municipality_id=municipality_id,
            kind=KIND,
            file_name=file_name,
            file_sha256=file_sha256,
            layer=parsed.sheet,
            at=clock.now(),
            by_user_id=actor.user_id,
            counts=plan.counts,
        )
        uow.registers.add(record)
        uow.flush()
        assert record.id is not None
        uow.commit()
        return ContractorsImported(record.id, plan)


def _party(uow: UnitOfWork, party_id: int) -> Party:
    party = uow.parties.get(party_id)  # locked already, by the comparison
    if party is None:
        raise NotFound(f"person or organization #{party_id} does not exist")
    return party
