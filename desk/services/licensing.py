"""City electrical licences (Glendale 15.1.75, 15.1.78) and condemnations of dwellings unfit for
human habitation (Hudson ch. 140; the record of Glendale 15.1.6(c)): one function per step, each
taking (uow, clock, actor, ...), checking who acts, applying the rule of desk/domain/licensing.py
and writing the row in one transaction (the audit trail follows in the same one).

- grant_city_licence: the inspector grants a numbered licence (series EL, gapless per year) to
  a party holding a state electrical contractor or master electrician licence in force that day.
- file_licence_complaint, schedule_revocation_hearing, record_council_finding,
  revoke_city_licence: 15.1.78's way from the inspector's complaint through the Clerk's hearing
  before the Council to the inspector's formal revocation.
- record_condemnation, record_vacated, lift_condemnation, record_razed: the Building
  Inspector's condemnation and placard (Hudson 140 B), the vacating (C), the written approval and
  the placard removed (D), or the building razed or removed.

The rows are plain mapped rows, added, found and read through the unit of work's register
repository (`uow.registers`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from desk.clock import Clock
from desk.dates import short_date
from desk.domain import licensing as rules
from desk.domain.credentials import HeldCredential
from desk.domain.licensing import Ground, LicenceStatus, Outcome, Revocation
from desk.domain.model import Actor, CityLicence, Condemnation, Municipality, Party
from desk.domain.permissions import Permission, require
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services.uow import UnitOfWork


def _municipality(uow: UnitOfWork, municipality_id: int) -> Municipality:
    muni = uow.municipalities.get(municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return muni


_Row = TypeVar("_Row", CityLicence, Condemnation)


def _registered(uow: UnitOfWork, cls: type[_Row], row_id: int, what: str) -> _Row:
    """The register's row `row_id`; NotFound names `what` ("City licence #7 does not exist")."""
    row = uow.registers.get(cls, row_id)
    if row is None:
        raise NotFound(f"{what} #{row_id} does not exist")
    assert isinstance(row, cls)
    return row


def _licence(uow: UnitOfWork, licence_id: int) -> CityLicence:
    return _registered(uow, CityLicence, licence_id, "City licence")


def _condemnation(uow: UnitOfWork, condemnation_id: int) -> Condemnation:
    return _registered(uow, Condemnation, condemnation_id, "condemnation")


def revocation_of(row: CityLicence) -> Revocation:
    return Revocation(
        complaint_on=row.complaint_on,
        hearing_on=row.hearing_on,
        notice_on=row.notice_on,
        finding_on=row.finding_on,
        disqualified=row.disqualified,
        revoked_on=row.revoked_on,
    )


def _status(row: CityLicence, on: date) -> LicenceStatus:
    return rules.licence_status(row.expires_on, row.revoked_on, on)


# --- licences -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LicenceGranted:
    licence_id: int
    number: str
    expires_on: date
    credential: str  # the state credential it rests on, in words


def grant_city_licence(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    party_id: int | None,
    *,
    trade: str = "electrical",
    fee_note: str = "",
) -> LicenceGranted:
    """Grant today's City licence to the party (15.1.75(a)). Refused when the party holds no
    qualifying state credential in force today, or already holds a City licence in force."""
    rules.require_role(actor.username, actor.roles, rules.GRANT_ROLES, "grant City licences")
    rules.check_trade(trade)
    if party_id is None:
        raise ValidationError("licensee", "choose the licensee from the register's parties")
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        muni = _municipality(uow, municipality_id)
        party = uow.parties.get(party_id)
        if party is None:
            raise ValidationError("licensee", f"party #{party_id} does not exist")
        name = _party_name(party)
        held = [
            HeldCredential(c.kind, c.number, c.expires_on)
            for c in party.credentials
            if c.superseded_by_id is None
        ]
        credential = rules.qualifying_credential(name, trade, held, today)
        for other in uow.registers.find(
            CityLicence, municipality_id=municipality_id, party_id=party_id, trade=trade
        ):
            if _status(other, today) is LicenceStatus.IN_FORCE:
                raise RuleViolation(
                    f"{name} already holds City licence {other.number}, in force through "
                    f"{short_date(other.expires_on)}"
                )
        assert muni.id is not None
        seq = uow.numbers.next(muni.id, rules.LICENCE_SERIES, today.year)
        row = CityLicence(
            municipality_id=muni.id,
            number=rules.licence_number(today.year, seq),
            party_id=party_id,
            licensee=name,
            trade=trade,
            credential_kind=credential.kind,
            credential_number=credential.number,
            credential_expires_on=credential.expires_on,
            granted_on=today,
            expires_on=rules.licence_term(today, credential.expires_on),
            fee_note=fee_note.strip(),
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.registers.add(row)
        uow.flush()
        uow.commit()
        assert row.id is not None
        return LicenceGranted(
            row.id,
            row.number,
            row.expires_on,
            rules.credential_words(credential.kind, credential.number, credential.expires_on),
        )


def _party_name(party: Party) -> str:
    return party.name or " ".join(x for x in (party.first_name, party.last_name) if x)


def file_licence_complaint(
    uow: UnitOfWork, clock: Clock, actor: Actor, licence_id: int, complaint_on: date, basis: str
) -> date:
    """15.1.78(a): the Electrical Inspector's complaint filed with the City Clerk. Returns the
    last day the Council's hearing may be held (15.1.78(b))."""
    rules.require_role(
        actor.username, actor.roles, rules.COMPLAINT_ROLES, "file a complaint against a licence"
    )
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        row = _licence(uow, licence_id)
        if complaint_on < row.granted_on:
            raise ValidationError(
                "complaint date",
                f"is before the licence was granted on {short_date(row.granted_on)}",
            )
        rules.check_complaint(
            _status(row, complaint_on), revocation_of(row), complaint_on, basis, today
        )
        # A new complaint after a dismissed one starts afresh; the earlier one stays in the
        # licence's audit trail.
        row.complaint_on = complaint_on
        row.complaint = basis.strip()
        row.hearing_on = row.notice_on = row.finding_on = row.disqualified = None
        row.notified = row.council_finding = ""
        uow.commit()
        return rules.hearing_deadline(complaint_on)


def schedule_revocation_hearing(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    hearing_on: date,
    notice_on: date,
    notified: str,
) -> None:
    """15.1.78(b): the Clerk's hearing before the Common Council, within thirty days after the
    complaint, with written notice to the licensee and the employer not less than five days
    before it. A hearing may be moved (within the same limits) until the Council's finding."""
    rules.require_role(
        actor.username, actor.roles, rules.HEARING_ROLES, "schedule the Council's hearing"
    )
    with uow:
        uow.act_as(actor, clock.now())
        row = _licence(uow, licence_id)
        rev = revocation_of(row)
        if rev.complaint_on is None or not rev.pending:
            raise RuleViolation("There is no open complaint against this licence (15.1.78(a))")
        if rev.disqualified is not None:
            of = f" of {short_date(rev.finding_on)}" if rev.finding_on else ""
            raise RuleViolation(f"The Council's finding{of} is recorded already")
        rules.check_hearing(rev.complaint_on, hearing_on, notice_on, notified)
        row.hearing_on = hearing_on
        row.notice_on = notice_on
        row.notified = notified.strip()
        uow.commit()


def record_council_finding(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    finding_on: date,
    disqualified: bool,
    finding: str,
) -> None:
    """The Common Council's finding upon the hearing, as the Clerk records it from the minutes:
    the licensee disqualified "for good and proper cause" (the inspector then revokes), or not
    (the complaint is dismissed and the licence stays in force), 15.1.78(c)."""
    rules.require_role(
        actor.username, actor.roles, rules.HEARING_ROLES, "record the Council's finding"
    )
    with uow:
        uow.act_as(actor, clock.now())
        row = _licence(uow, licence_id)
        rules.check_finding(revocation_of(row), finding_on, finding, clock.today())
        row.finding_on = finding_on
        row.disqualified = disqualified
        row.council_finding = finding.strip()
        uow.commit()


def revoke_city_licence(uow: UnitOfWork, clock: Clock, actor: Actor, licence_id: int) -> date:
    """15.1.78(c): the Electrical Inspector formally revokes the licence upon the Council's
    finding of disqualification, once the hearing has been held. Returns the day revoked."""
    rules.require_role(actor.username, actor.roles, rules.REVOKE_ROLES, "revoke City licences")
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        row = _licence(uow, licence_id)
        rules.check_revocation(revocation_of(row), today)
        row.revoked_on = today
        row.revoked_by_id = actor.user_id
        uow.commit()
        return today


# --- condemnations --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CondemnationInput:
    municipality_id: int
    address: str
    grounds: tuple[str, ...]  # Ground values ("B1") or codes ("B(1)")
    reasons: str
    condemned_on: date
    placarded_on: date | None = None  # None: the day of the condemnation
    vacate_by: date | None = None  # None: condemned_on + the profile's period (60 days)
    dwelling_unit: str = ""
    notified: str = ""
    permit_id: int | None = None
    parcel_id: int | None = None


def vacate_days(uow: UnitOfWork, municipality_id: int) -> int:
    """The municipality's vacate period (Hudson 140 C: 60 days unless its profile says)."""
    with uow:
        return rules.vacate_period(_municipality(uow, municipality_id).settings)


def set_vacate_days(
    uow: UnitOfWork, clock: Clock, actor: Actor, municipality_id: int, days: int
) -> None:
    """Change the municipality's vacate period (a profile setting, audited)."""
    require(actor, Permission.MANAGE_MUNICIPALITY)
    rules.check_vacate_period(days)
    with uow:
        uow.act_as(actor, clock.now())
        muni = _municipality(uow, municipality_id)
        section = dict(muni.settings.get(rules.SETTINGS_KEY) or {})
        section[rules.VACATE_SETTING] = days
        muni.settings = {**muni.settings, rules.SETTINGS_KEY: section}
        uow.commit()


def record_condemnation(uow: UnitOfWork, clock: Clock, actor: Actor, c: CondemnationInput) -> int:
    """The Building Inspector condemns a dwelling or dwelling unit as unfit for human habitation
    and placards it (Hudson 140 B), ordering it vacated within the period (C)."""
    rules.require_role(
        actor.username, actor.roles, rules.CONDEMN_ROLES, "condemn a dwelling (Hudson 140 B)"
    )
    grounds = rules.parse_grounds(c.grounds)
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        muni = _municipality(uow, c.municipality_id)
        days = rules.vacate_period(muni.settings)
        vacate_by = c.vacate_by or rules.vacate_date(c.condemned_on, days)
        rules.check_condemnation(
            address=c.address,
            reasons=c.reasons,
            condemned_on=c.condemned_on,
            placarded_on=c.placarded_on,
            vacate_by=vacate_by,
            days=days,
            today=today,
        )
        parcel_id = c.parcel_id
        if c.permit_id is not None:
            permit = uow.permits.get(c.permit_id)
            if permit is None or permit.municipality_id != c.municipality_id:
                raise ValidationError("permit", f"permit #{c.permit_id} does not exist")
            parcel_id = parcel_id or permit.parcel_id
        if parcel_id is not None:
            parcel = uow.parcels.get(parcel_id)
            if parcel is None or parcel.municipality_id != c.municipality_id:
                raise ValidationError("parcel", f"parcel #{parcel_id} does not exist")
        row = Condemnation(
            municipality_id=c.municipality_id,
            address=" ".join(c.address.split()),
            grounds=[g.value for g in grounds],
            reasons=c.reasons.strip(),
            condemned_on=c.condemned_on,
            placarded_on=c.placarded_on or c.condemned_on,
            vacate_by=vacate_by,
            parcel_id=parcel_id,
            permit_id=c.permit_id,
            dwelling_unit=c.dwelling_unit.strip(),
            notified=c.notified.strip(),
            outcome=Outcome.OPEN,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.registers.add(row)
        uow.flush()
        uow.commit()
        assert row.id is not None
        return row.id


def record_vacated(
    uow: UnitOfWork, clock: Clock, actor: Actor, condemnation_id: int, vacated_on: date
) -> None:
    """The inspector found the dwelling vacated as ordered (Hudson 140 C); it stays placarded."""
    rules.require_role(
        actor.username, actor.roles, rules.CONDEMN_ROLES, "record a condemned dwelling vacated"
    )
    with uow:
        uow.act_as(actor, clock.now())
        row = _condemnation(uow, condemnation_id)
        rules.check_vacated(
            row.outcome, row.condemned_on, vacated_on, clock.today(), row.outcome_on
        )
        row.vacated_on = vacated_on
        uow.commit()


def lift_condemnation(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    condemnation_id: int,
    removed_on: date,
    approval_note: str,
) -> None:
    """Hudson 140 D: the defects are eliminated; the Building Inspector gives written approval
    to reoccupy and removes the placard."""
    rules.require_role(
        actor.username, actor.roles, rules.CONDEMN_ROLES, "lift a condemnation (Hudson 140 D)"
    )
    with uow:
        uow.act_as(actor, clock.now())
        row = _condemnation(uow, condemnation_id)
        rules.check_lift(
            row.outcome,
            row.condemned_on,
            removed_on,
            approval_note,
            clock.today(),
            row.outcome_on,
        )
        row.outcome = Outcome.DEFECTS_ELIMINATED
        row.outcome_on = removed_on
        row.placard_removed_on = removed_on
        row.approval_note = approval_note.strip()
        uow.commit()


def record_razed(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    condemnation_id: int,
    on: date,
    outcome: Outcome = Outcome.RAZED,
    note: str = "",
) -> None:
    """The condemned building razed or removed (the razing permit, 15.1.10, is its own record)."""
    rules.require_role(
        actor.username, actor.roles, rules.CONDEMN_ROLES, "record a condemned building razed"
    )
    with uow:
        uow.act_as(actor, clock.now())
        row = _condemnation(uow, condemnation_id)
        rules.check_open(row.outcome, row.outcome_on)
        rules.check_closed(Outcome(outcome), row.condemned_on, on, clock.today())
        row.outcome = Outcome(outcome)
        row.outcome_on = on
        row.outcome_note = note.strip()
        uow.commit()


__all__ = [
    "CondemnationInput",
    "Ground",
    "LicenceGranted",
    "file_licence_complaint",
    "grant_city_licence",
    "lift_condemnation",
    "record_condemnation",
    "record_council_finding",
    "record_razed",
    "record_vacated",
    "revoke_city_licence",
    "schedule_revocation_hearing",
    "set_vacate_days",
    "vacate_days",
]
