"""The Bonds & Insurance section: the bond register and the insurance certificates
on file, with filters, and the expiry watch — what ends in the next 60 days and what ended while
a permit still relies on it — with reminder letters to the contractors (a PDF mail-merged from
the list) and the expiring report (.xlsx, .pdf).

Keyboard: Ctrl+1/2/3 pick a page; Ctrl+F the search; the buttons carry mnemonics; Enter in a
list edits the selected bond or certificate.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db import queries
from db import surety_queries as sq
from db.database import Database
from desk.clock import Clock
from desk.domain.sureties import (
    BondKind,
    BondPurpose,
    BondScope,
    BondStatus,
    Coverage,
    CoverageKind,
)
from desk.errors import ValidationError
from desk.services import sureties as svc
from ui import dialogs
from ui.exports import LETTERS, REPORTS, file_pdf, filed_path, send_to_printer
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters.formatting import format_amount, format_date
from ui.presenters.session import Session
from ui.presenters.sureties import (
    PURPOSE_FILTERS,
    STATUS_FILTERS,
    BondsPresenter,
    CertificatesPresenter,
    ExpiryPresenter,
    names_list,
    parse_day,
    parse_money,
)
from ui.views.common import (
    LinesModel,
    button_row,
    enable_buttons,
    filter_combo,
    fit_columns,
    note_label,
    read_only_table,
    search_field,
    selected_row,
)
from ui.views.section import SectionView

SECTION_TITLE = "Bonds & Insurance"
WARN = QColor(160, 82, 0)
PAGES = ("bonds", "certificates", "watch")

# What each purpose's bond is further conditioned on (resources/surety_requirements.toml).
CONDITIONS: dict[BondPurpose, tuple[tuple[str, str], ...]] = {
    BondPurpose.MOVING: (
        ("barriers_48h", "Barriers, and the excavation filled within 48 hours (15.1.9(f)(2))"),
    ),
    BondPurpose.PLAN_COMMISSION: (
        ("exterior_alterations", "The exterior alterations completed in time (15.1.9(h)(1))"),
    ),
}


class PartyField(QLineEdit):
    """A name typed or picked from the register's parties; `party_id` when it is one."""

    def __init__(self, database: Database, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.database = database
        self.choices: dict[str, int] = {}
        self.model = QStringListModel(self)
        completer = QCompleter(self.model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setCompleter(completer)
        self.textEdited.connect(self._search)

    def _search(self, text: str) -> None:
        if len(text.strip()) < 2:
            return
        with self.database.read() as conn:
            found = queries.party_matches(conn, text, limit=15)
        self.choices.update({p.name: p.id for p in found})
        self.model.setStringList([p.name for p in found])

    def set_party(self, name: str, party_id: int | None) -> None:
        self.setText(name)
        if party_id is not None:
            self.choices[name] = party_id

    def party_id(self) -> int | None:
        name = self.text().strip()
        if name in self.choices:
            return self.choices[name]
        with self.database.read() as conn:
            exact = [p for p in queries.party_matches(conn, name, limit=5) if p.name == name]
        return exact[0].id if len(exact) == 1 else None


def _permit_ids(database: Database, municipality_id: int, text: str) -> tuple[int, ...]:
    out = []
    with database.read() as conn:
        for number in (n.strip() for n in text.replace(";", ",").split(",")):
            if not number:
                continue
            pid = queries.permit_id_by_number(conn, municipality_id, number)
            if pid is None and number.startswith("#") and number[1:].isdigit():
                pid = int(number[1:])  # an application not issued yet, by its id
            if pid is None:
                raise ValidationError("permits", f"no permit is numbered {number}")
            out.append(pid)
    return tuple(out)


def _numbers(database: Database, permit_ids: tuple[int, ...]) -> str:
    with database.read() as conn:
        return ", ".join(sq.permit_label(conn, pid).split(" — ")[0] for pid in permit_ids)


class BondDialog(ActionDialog):
    """A new bond, or a correction of one (audited)."""

    def __init__(
        self,
        context: PermitContext,
        bond_id: int | None = None,
        permit_numbers: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            context,
            "Correct a bond" if bond_id else "File a bond",
            "A bond to the City or the Plan Commission, a letter of credit, a cash bond or a "
            "written guarantee; the permits it covers, or all of a contractor's openings of a "
            "year (§435-7.K).",
            "&Save",
            parent,
        )
        self.bond_id = bond_id
        db, muni = context.database, context.session.municipality_name
        self.purpose = QComboBox(self)
        self.purpose.setObjectName("bondPurpose")
        for p in BondPurpose:
            self.purpose.addItem(p.label, p.value)
        self.add_field("&What it secures:", self.purpose, "purpose")
        self.kind = QComboBox(self)
        self.kind.setObjectName("bondKind")
        for k in BondKind:
            self.kind.addItem(k.label, k.value)
        self.add_field("&Kind:", self.kind, "kind")
        self.principal = PartyField(db, "bondPrincipal", self)
        self.principal.setPlaceholderText("the contractor or permittee who gives the bond")
        self.add_field("&Principal:", self.principal, "principal")
        self.obligee = QLineEdit(muni, self)
        self.obligee.setObjectName("bondObligee")
        self.add_field("To (o&bligee):", self.obligee, "obligee")
        self.amount = QLineEdit(self)
        self.amount.setObjectName("bondAmount")
        self.add_field("&Amount:", self.amount, "amount")
        self.number = QLineEdit(self)
        self.number.setObjectName("bondNumber")
        self.add_field("Bond &number:", self.number, "number")
        self.company = QLineEdit(self)
        self.company.setObjectName("suretyCompany")
        self.add_field("Surety &company:", self.company, "surety_company")
        self.sureties = QLineEdit(self)
        self.sureties.setObjectName("personalSureties")
        self.sureties.setPlaceholderText("names separated by semicolons")
        self.add_field("Personal s&ureties:", self.sureties, "personal_sureties")
        self.approved = QLineEdit(self)
        self.approved.setObjectName("suretiesApproved")
        self.approved.setPlaceholderText("e.g. Common Council, 03/10/2026")
        self.add_field("Sureties appro&ved by:", self.approved, "sureties_approved")
        self.effective = QLineEdit(format_date(context.clock.today()), self)
        self.effective.setObjectName("bondEffective")
        self.add_field("&Effective:", self.effective, "effective on")
        self.expires = QLineEdit(self)
        self.expires.setObjectName("bondExpires")
        self.expires.setPlaceholderText("empty: in force until released")
        self.add_field("E&xpires:", self.expires, "expiry", "expires on")
        self.annual = QCheckBox("Annual bond: all of the principal's openings of the &year", self)
        self.annual.setObjectName("bondAnnual")
        self.year = QSpinBox(self)
        self.year.setObjectName("bondYear")
        self.year.setRange(2000, 2100)
        self.year.setValue(context.clock.today().year)
        self.year.setEnabled(False)
        self.annual.toggled.connect(self._annual)
        holder = QWidget(self)
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.annual)
        row.addWidget(self.year)
        row.addStretch(1)
        self.add_field("", holder, "year")
        self.permits = QLineEdit(permit_numbers, self)
        self.permits.setObjectName("bondPermits")
        self.permits.setPlaceholderText("permit numbers, e.g. 2026-0042, 2026-0051")
        self.add_field("Covers per&mits:", self.permits, "permits")
        self.condition_boxes: dict[str, QCheckBox] = {}
        conditions = QWidget(self)
        grid = QVBoxLayout(conditions)
        grid.setContentsMargins(0, 0, 0, 0)
        for items in CONDITIONS.values():
            for code, words in items:
                box = QCheckBox(words, self)
                box.setObjectName(f"condition_{code}")
                self.condition_boxes[code] = box
                grid.addWidget(box)
        self.add_field("Conditioned on:", conditions, "conditions")
        self.notes = QLineEdit(self)
        self.notes.setObjectName("bondNotes")
        self.add_field("N&otes:", self.notes, "notes")
        self.purpose.currentIndexChanged.connect(self._purpose)
        self.kind.currentIndexChanged.connect(self._kind)
        self.shown_version: int | None = None
        if bond_id:
            self.reload = lambda: self._fill(svc.bond_input(db.uow(), bond_id))
            self.reload()
            self.watch("bond", bond_id, "bond")
        self._purpose()
        self._kind()
        self.saved_id: int | None = None

    def _fill(self, b: svc.BondInput) -> None:
        self.purpose.setCurrentIndex(self.purpose.findData(b.purpose.value))
        self.kind.setCurrentIndex(self.kind.findData(b.kind.value))
        self.principal.set_party(b.principal, b.principal_party_id)
        self.obligee.setText(b.obligee)
        self.amount.setText(f"{b.amount:.2f}")
        self.number.setText(b.number)
        self.company.setText(b.surety_company)
        self.sureties.setText("; ".join(b.personal_sureties))
        self.approved.setText(b.sureties_approved)
        self.effective.setText(format_date(b.effective_on))
        self.expires.setText(format_date(b.expires_on))
        self.annual.setChecked(b.scope is BondScope.CONTRACTOR_YEAR)
        if b.year:
            self.year.setValue(b.year)
        self.permits.setText(_numbers(self.context.database, b.permit_ids))
        for code, box in self.condition_boxes.items():
            box.setChecked(code in b.conditions)
        self.notes.setText(b.notes)
        self.shown_version = b.version

    def _annual(self, on: bool) -> None:
        self.year.setEnabled(on)
        self.permits.setEnabled(not on)

    def _purpose(self) -> None:
        purpose = BondPurpose(self.purpose.currentData())
        shown = {code for code, _ in CONDITIONS.get(purpose, ())}
        for code, box in self.condition_boxes.items():
            box.setVisible(code in shown)
        if purpose is BondPurpose.PLAN_COMMISSION and not self.bond_id:
            self.obligee.setText("Plan Commission")

    def _kind(self) -> None:
        kind = BondKind(self.kind.currentData())
        self.company.setEnabled(kind in (BondKind.SURETY, BondKind.LETTER_OF_CREDIT))
        self.sureties.setEnabled(kind is BondKind.PERSONAL)
        self.approved.setEnabled(kind is BondKind.PERSONAL)

    def bond_input(self) -> svc.BondInput:
        ctx = self.context
        amount = parse_money(self.amount.text(), "amount")
        effective = parse_day(self.effective.text(), "effective on")
        assert amount is not None and effective is not None
        annual = self.annual.isChecked()
        return svc.BondInput(
            municipality_id=ctx.session.municipality_id,
            purpose=BondPurpose(self.purpose.currentData()),
            kind=BondKind(self.kind.currentData()),
            principal=self.principal.text(),
            principal_party_id=self.principal.party_id(),
            obligee=self.obligee.text(),
            amount=amount,
            effective_on=effective,
            expires_on=parse_day(self.expires.text(), "expires on", required=False),
            number=self.number.text(),
            surety_company=self.company.text() if self.company.isEnabled() else "",
            personal_sureties=names_list(self.sureties.text()) if self.sureties.isEnabled() else (),
            sureties_approved=self.approved.text() if self.approved.isEnabled() else "",
            conditions=tuple(
                code
                for code, box in self.condition_boxes.items()
                if box.isChecked() and not box.isHidden()
            ),
            scope=BondScope.CONTRACTOR_YEAR if annual else BondScope.PERMITS,
            year=self.year.value() if annual else None,
            permit_ids=()
            if annual
            else _permit_ids(ctx.database, ctx.session.municipality_id, self.permits.text()),
            notes=self.notes.text(),
            version=self.shown_version,
        )

    def run(self) -> None:
        ctx = self.context
        b = self.bond_input()
        if self.bond_id:
            svc.edit_bond(ctx.database.uow(), ctx.clock, ctx.session.actor, self.bond_id, b)
            self.saved_id = self.bond_id
        else:
            self.saved_id = svc.record_bond(ctx.database.uow(), ctx.clock, ctx.session.actor, b)


class CertificateDialog(ActionDialog):
    """A certificate of insurance: the contractor's own, or an association's for its members."""

    def __init__(
        self,
        context: PermitContext,
        certificate_id: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            context,
            "Correct a certificate" if certificate_id else "File a certificate of insurance",
            "Each coverage with its limit. An association of plumbers may file one certificate "
            "for its members, good for at most one year from filing (15.1.38(b)).",
            "&Save",
            parent,
        )
        self.certificate_id = certificate_id
        db = context.database
        self.insured = PartyField(db, "certificateInsured", self)
        self.add_field("&Insured:", self.insured, "insured")
        self.insurer = QLineEdit(self)
        self.insurer.setObjectName("certificateInsurer")
        self.add_field("Insu&rer:", self.insurer, "insurer")
        self.policy = QLineEdit(self)
        self.policy.setObjectName("certificatePolicy")
        self.add_field("Polic&y number:", self.policy, "policy")
        self.limits: dict[CoverageKind, QLineEdit] = {}
        for kind, label in (
            (CoverageKind.PER_PERSON, "Liability, one &person:"),
            (CoverageKind.PER_ACCIDENT, "Liability, one a&ccident:"),
            (CoverageKind.PROPERTY_DAMAGE, "Property &damage:"),
        ):
            edit = QLineEdit(self)
            edit.setObjectName(f"limit_{kind.value}")
            edit.setPlaceholderText("the limit in dollars, e.g. 100,000; empty: not covered")
            self.limits[kind] = edit
            self.add_field(label, edit, kind.value)
        self.fields["coverages"] = self.limits[CoverageKind.PER_PERSON]
        self.effective = QLineEdit(format_date(context.clock.today()), self)
        self.effective.setObjectName("certificateEffective")
        self.add_field("&Effective:", self.effective, "effective on")
        self.expires = QLineEdit(self)
        self.expires.setObjectName("certificateExpires")
        self.add_field("E&xpires:", self.expires, "expiry", "expires on")
        self.holder = QLineEdit(context.session.municipality_name, self)
        self.holder.setObjectName("certificateHolder")
        self.add_field("Certificate &holder:", self.holder, "holder")
        self.file_reference = QLineEdit(self)
        self.file_reference.setObjectName("fileReference")
        self.add_field("&File reference:", self.file_reference, "file_reference")
        self.association = QCheckBox("Filed by an &association on behalf of its members", self)
        self.association.setObjectName("certificateAssociation")
        self.add_field("", self.association, "association")
        self.filed_on = QLineEdit(self)
        self.filed_on.setObjectName("certificateFiledOn")
        self.add_field("Filed o&n:", self.filed_on, "filed_on", "filed on")
        self.members = QLineEdit(self)
        self.members.setObjectName("certificateMembers")
        self.members.setPlaceholderText("the members' names, separated by semicolons")
        self.add_field("&Members:", self.members, "members")
        self.association.toggled.connect(self._association)
        self.member_ids: dict[str, int | None] = {}
        self.shown_version: int | None = None
        if certificate_id:
            self.reload = lambda: self._fill(svc.certificate_input(db.uow(), certificate_id))
            self.reload()
            self.watch("insurance_certificate", certificate_id, "certificate")
        self._association(self.association.isChecked())
        self.saved_id: int | None = None

    def _fill(self, c: svc.CertificateInput) -> None:
        self.insured.set_party(c.insured, c.insured_party_id)
        self.insurer.setText(c.insurer)
        self.policy.setText(c.policy)
        limits = {cov.kind: cov.limit for cov in c.coverages}
        for kind, edit in self.limits.items():
            edit.setText(f"{limits[kind]:,.2f}" if kind in limits else "")
        self.effective.setText(format_date(c.effective_on))
        self.expires.setText(format_date(c.expires_on))
        self.holder.setText(c.holder)
        self.file_reference.setText(c.file_reference)
        self.association.setChecked(c.association)
        self.filed_on.setText(format_date(c.filed_on))
        self.members.setText("; ".join(name for name, _ in c.members))
        self.member_ids = {name: pid for name, pid in c.members}
        self.shown_version = c.version

    def _association(self, on: bool) -> None:
        self.filed_on.setEnabled(on)
        self.members.setEnabled(on)
        if on and not self.filed_on.text():
            self.filed_on.setText(self.effective.text())

    def certificate_input(self) -> svc.CertificateInput:
        ctx = self.context
        coverages = []
        for kind, edit in self.limits.items():
            limit = parse_money(edit.text(), kind.value, required=False)
            if limit is not None:
                coverages.append(Coverage(kind, limit))
        effective = parse_day(self.effective.text(), "effective on")
        expires = parse_day(self.expires.text(), "expires on")
        assert effective is not None and expires is not None
        association = self.association.isChecked()
        members: tuple[tuple[str, int | None], ...] = ()
        if association:
            members = tuple((n, self.member_ids.get(n)) for n in names_list(self.members.text()))
        return svc.CertificateInput(
            municipality_id=ctx.session.municipality_id,
            insured=self.insured.text(),
            insured_party_id=self.insured.party_id(),
            insurer=self.insurer.text(),
            policy=self.policy.text(),
            effective_on=effective,
            expires_on=expires,
            coverages=tuple(coverages),
            holder=self.holder.text(),
            file_reference=self.file_reference.text(),
            association=association,
            filed_on=parse_day(self.filed_on.text(), "filed on", required=False)
            if association
            else None,
            members=members,
            version=self.shown_version,
        )

    def run(self) -> None:
        ctx = self.context
        c = self.certificate_input()
        if self.certificate_id:
            svc.edit_certificate(
                ctx.database.uow(), ctx.clock, ctx.session.actor, self.certificate_id, c
            )
            self.saved_id = self.certificate_id
        else:
            self.saved_id = svc.record_certificate(
                ctx.database.uow(), ctx.clock, ctx.session.actor, c
            )


class ClaimDialog(ActionDialog):
    def __init__(self, context: PermitContext, row: sq.BondRow, parent: QWidget | None = None):
        super().__init__(
            context,
            "Record a claim on the bond",
            f"{row.title} of {row.principal}, {format_amount(row.amount)}: the amount claimed "
            "and why.",
            "Record &claim",
            parent,
        )
        self.row = row
        self.amount = QLineEdit(self)
        self.amount.setObjectName("claimAmount")
        self.add_field("&Amount:", self.amount, "claim_amount", "amount")
        self.reason = QLineEdit(self)
        self.reason.setObjectName("claimReason")
        self.add_field("&Reason:", self.reason, "claim_reason", "reason")

    def run(self) -> None:
        amount = parse_money(self.amount.text(), "claim_amount")
        assert amount is not None
        ctx = self.context
        svc.claim(
            ctx.database.uow(),
            ctx.clock,
            ctx.session.actor,
            self.row.id,
            amount,
            self.reason.text(),
        )


def _table(parent: QWidget, name: str, model: LinesModel) -> QTableView:
    table = read_only_table(parent, name, model)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    return table


class BondsView(SectionView):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__("bondsView", database, session, clock, parent)
        mid = session.municipality_id

        def bonds(text: str, status: BondStatus | None, purpose: BondPurpose | None) -> Any:
            with database.read() as conn:
                return sq.bond_rows(conn, mid, clock.today(), text, status, purpose)

        def certificates(text: str, include_expired: bool) -> Any:
            with database.read() as conn:
                return sq.certificate_rows(conn, mid, clock.today(), text, include_expired)

        self.bonds = BondsPresenter(bonds, clock.today, session.actor.roles)
        self.certificates = CertificatesPresenter(certificates)
        self.watch = ExpiryPresenter(
            lambda days: svc.expiry_watch(database.uow(), clock, mid, days)
        )
        self._paged(
            SECTION_TITLE,
            "bondPages",
            (
                (self._bonds_page, "&Bonds"),
                (self._certificates_page, "Insurance &certificates"),
                (self._watch_page, "E&xpiry watch"),
            ),
        )

    # --- pages -------------------------------------------------------------------------------

    def _bonds_page(self) -> QWidget:
        page = QWidget(self)
        self.bond_search = search_field(
            page, "bondSearch", "Principal, bond number, surety or permit", self._bond_filter
        )
        self.status_filter = filter_combo(
            page, "bondStatusFilter", STATUS_FILTERS, self._bond_filter
        )
        self.purpose_filter = filter_combo(
            page, "bondPurposeFilter", PURPOSE_FILTERS, self._bond_filter
        )
        self.bond_model = LinesModel(self.bonds, self, WARN)
        self.bond_table = _table(page, "bondsTable", self.bond_model)
        self.bond_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.bond_table.activated.connect(lambda _i: self.edit_bond())
        self.bond_note = note_label(page, selectable=False)
        self.new_bond_button = QPushButton("&New bond…", page)
        self.edit_bond_button = QPushButton("&Edit…", page)
        self.release_button = QPushButton("&Release…", page)
        self.claim_button = QPushButton("Recor&d claim…", page)
        self.expire_button = QPushButton("&Mark expired", page)
        buttons = button_row(
            ("newBond", self.new_bond_button, self.new_bond),
            ("editBond", self.edit_bond_button, self.edit_bond),
            ("releaseBond", self.release_button, self.release_bond),
            ("claimBond", self.claim_button, self.claim_bond),
            ("expireBond", self.expire_button, self.expire_bond),
        )
        filters = QHBoxLayout()
        filters.addWidget(self.bond_search, 2)
        filters.addWidget(self.status_filter)
        filters.addWidget(self.purpose_filter)
        layout = QVBoxLayout(page)
        layout.addLayout(filters)
        layout.addWidget(self.bond_table, 1)
        layout.addWidget(self.bond_note)
        layout.addLayout(buttons)
        self.bond_table.selectionModel().currentRowChanged.connect(lambda *_: self._bond_buttons())
        return page

    def _certificates_page(self) -> QWidget:
        page = QWidget(self)
        self.cert_search = search_field(
            page, "certificateSearch", "Insured, insurer, policy or member", self._cert_filter
        )
        self.show_expired = QCheckBox("Show expi&red", page)
        self.show_expired.setObjectName("showExpired")
        self.show_expired.toggled.connect(self._cert_filter)
        self.cert_model = LinesModel(self.certificates, self, WARN)
        self.cert_table = _table(page, "certificatesTable", self.cert_model)
        self.cert_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.cert_table.activated.connect(lambda _i: self.edit_certificate())
        self.new_cert_button = QPushButton("&New certificate…", page)
        self.edit_cert_button = QPushButton("&Edit…", page)
        buttons = button_row(
            ("newCertificate", self.new_cert_button, self.new_certificate),
            ("editCertificate", self.edit_cert_button, self.edit_certificate),
        )
        filters = QHBoxLayout()
        filters.addWidget(self.cert_search, 2)
        filters.addWidget(self.show_expired)
        layout = QVBoxLayout(page)
        layout.addLayout(filters)
        layout.addWidget(self.cert_table, 1)
        layout.addLayout(buttons)
        return page

    def _watch_page(self) -> QWidget:
        page = QWidget(self)
        self.days = QSpinBox(page)
        self.days.setObjectName("watchDays")
        self.days.setRange(1, 365)
        self.days.setValue(self.watch.days)
        self.days.setSuffix(" days")
        self.days.valueChanged.connect(self._days_changed)
        days_label = QLabel("&Look ahead", page)
        days_label.setBuddy(self.days)
        self.watch_model = LinesModel(self.watch, self, WARN)
        self.watch_table = _table(page, "expiryTable", self.watch_model)
        self.watch_note = QLabel(
            "Select the lines to write to (none selected: all of them). The letters are one PDF, "
            "a page per contractor, on the letterhead.",
            page,
        )
        self.watch_note.setObjectName("noteText")
        self.watch_note.setWordWrap(True)
        self.letters_button = QPushButton("Reminder le&tters…", page)
        self.watch_xlsx_button = QPushButton("Export .xl&sx…", page)
        self.watch_pdf_button = QPushButton("Export &PDF…", page)
        buttons = button_row(
            ("reminderLetters", self.letters_button, self.letters),
            ("exportExpiringXlsx", self.watch_xlsx_button, lambda: self.export_expiring("xlsx")),
            ("exportExpiringPdf", self.watch_pdf_button, lambda: self.export_expiring("pdf")),
        )
        top = QHBoxLayout()
        top.addWidget(days_label)
        top.addWidget(self.days)
        top.addStretch(1)
        layout = QVBoxLayout(page)
        layout.addLayout(top)
        layout.addWidget(self.watch_table, 1)
        layout.addWidget(self.watch_note)
        layout.addLayout(buttons)
        return page

    # --- loading -------------------------------------------------------------------------------

    def load(self) -> None:
        for presenter, model, table, stretch in (
            (self.bonds, self.bond_model, self.bond_table, (2, 7)),
            (self.certificates, self.cert_model, self.cert_table, (1, 3)),
            (self.watch, self.watch_model, self.watch_table, (2, 4, 6)),
        ):
            presenter.load()
            model.reload()
            self._fit(table, stretch)
        self._bond_buttons()
        self._show_summary()
        self.loaded = True

    def _fit(self, table: QTableView, stretch: tuple[int, ...]) -> None:
        """Short columns as wide as their values; the names and lists share the rest."""
        fit_columns(table, stretch)
        # The watch starts with nothing selected: the letters then go to every line.
        first = table.model().rowCount() and not table.currentIndex().isValid()
        if first and table is not self.watch_table:
            table.selectRow(0)

    def _show_summary(self) -> None:
        page = self.pages.currentIndex()
        text = (self.bonds.summary, self.certificates.summary, self.watch.summary)[page]
        self.summary.setText(text)

    def show_page(self, key: str) -> None:
        self.pages.setCurrentIndex(PAGES.index(key))

    def _focus_search(self) -> None:
        page = self.pages.currentIndex()
        target = (self.bond_search, self.cert_search, self.days)[page]
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _bond_filter(self) -> None:
        self.bonds.text = self.bond_search.text()
        # Qt hands the data back as text: the enums are rebuilt from their values.
        status, purpose = self.status_filter.currentData(), self.purpose_filter.currentData()
        self.bonds.status = BondStatus(status) if status else None
        self.bonds.purpose = BondPurpose(purpose) if purpose else None
        self.bonds.load()
        self.bond_model.reload()
        self._bond_buttons()
        self._show_summary()

    def _cert_filter(self) -> None:
        self.certificates.text = self.cert_search.text()
        self.certificates.include_expired = self.show_expired.isChecked()
        self.certificates.load()
        self.cert_model.reload()
        self._show_summary()

    def _days_changed(self, days: int) -> None:
        self.watch.days = days
        self.watch.load()
        self.watch_model.reload()
        self._show_summary()

    def _bond_row(self) -> int:
        return selected_row(self.bond_table)

    def _bond_buttons(self) -> None:
        row = self._bond_row()
        enable_buttons(
            (
                (self.edit_bond_button, self.bonds.can_edit(row)),
                (self.release_button, self.bonds.can_release(row)),
                (self.claim_button, self.bonds.can_claim(row)),
                (self.expire_button, self.bonds.can_expire(row)),
            )
        )
        b = self.bonds.bond(row)
        note = ""
        if b is not None:
            note = f"{b.title}: {b.purpose.label}, to {b.obligee}"
            if b.surety:
                note += f"; surety {b.surety}"
            if b.released:
                note += f"; released {b.released}"
            if b.claim:
                note += f"; claim {b.claim}"
            note += "."
        self.bond_note.setText(note)

    def _done(self, message: str) -> None:
        self.load()
        self._status(message)

    # --- bond actions ------------------------------------------------------------------------

    def new_bond(self) -> None:
        if actions.exec_dialog(BondDialog(self._context(), parent=self)):
            self._done("The bond is filed.")

    def edit_bond(self) -> None:
        b = self.bonds.bond(self._bond_row())
        if b is None or not self.bonds.can_edit(self._bond_row())[0]:
            return
        if actions.exec_dialog(BondDialog(self._context(), b.id, parent=self)):
            self._done(f"{b.title} is corrected.")

    def release_bond(self) -> None:
        b = self.bonds.bond(self._bond_row())
        if b is None:
            return
        uow = self.database.uow()
        problems = svc.bond_release_check(uow, self.clock, self.session.actor, b.id)
        if not self._confirmed(
            "Release the bond",
            (not problems, "\n".join(problems)),
            f"Release {b.title} of {b.principal} as of today?",
            lambda: svc.release(self.database.uow(), self.clock, self.session.actor, b.id),
        ):
            return
        self._done(f"{b.title} is released.")

    def claim_bond(self) -> None:
        b = self.bonds.bond(self._bond_row())
        if b is None:
            return
        if actions.exec_dialog(ClaimDialog(self._context(), b, self)):
            self._done(f"The claim on {b.title} is recorded.")

    def expire_bond(self) -> None:
        b = self.bonds.bond(self._bond_row())
        if b is None:
            return
        if not self._attempt(
            "Mark the bond expired",
            lambda: svc.expire(self.database.uow(), self.clock, self.session.actor, b.id),
        ):
            return
        self._done(f"{b.title} is marked expired.")

    # --- certificates --------------------------------------------------------------------------

    def new_certificate(self) -> None:
        if actions.exec_dialog(CertificateDialog(self._context(), parent=self)):
            self._done("The certificate is filed.")

    def edit_certificate(self) -> None:
        c = self.certificates.certificate(selected_row(self.cert_table))
        if c is None:
            return
        if actions.exec_dialog(CertificateDialog(self._context(), c.id, parent=self)):
            self._done(f"Certificate {c.policy} is corrected.")

    # --- the expiry watch's letters and report -------------------------------------------------

    def _letterhead(self) -> svc.Letterhead:
        with self.database.read() as conn:
            return sq.letterhead(conn, self.session.municipality_id)

    def letters(self) -> Path | None:
        from reports.surety_letters import render_reminder_letters

        rows = self.watch.chosen(
            [i.row() for i in self.watch_table.selectionModel().selectedRows()]
        )
        if not rows:
            dialogs.inform(self, "Reminder letters", self.watch.summary)
            return None
        today = self.clock.today()
        letters = svc.reminder_letters(self._letterhead(), today, rows)
        # A printout: filed in the document folder without asking.
        out = file_pdf(
            self,
            "Reminder letters",
            f"reminder-letters-{today.isoformat()}",
            lambda path: render_reminder_letters(letters, path),
            LETTERS,
            "The letters",
        )
        if out is None:
            return None
        dialogs.show_file(self, out, "Reminder letters")
        self._done(f"{len(rows)} reminder letter{'s' * (len(rows) != 1)} written.")
        return out

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print) on the expiry watch: its list straight to the print dialog."""
        if PAGES[self.pages.currentIndex()] != "watch":
            return False
        return self.export_expiring("pdf", direct=True) is not None

    def export_expiring(self, kind: str, *, direct: bool = False) -> Path | None:
        from reports import surety_reports

        today: date = self.clock.today()
        name = f"expiring-{today.isoformat()}.{kind}"
        if kind == "xlsx":
            path = dialogs.choose_file(
                self,
                "Export the expiry watch",
                "Excel workbook (*.xlsx)",
                save=True,
                directory=name,
            )
        else:  # a printout: filed in the document folder without asking
            path = str(filed_path(self, "Expiry watch", name, REPORTS))
        if not path:
            return None
        report = svc.ExpiringReport(
            self._letterhead(), today, self.watch.days, tuple(self.watch.items)
        )
        out = Path(path)
        if kind == "xlsx":
            surety_reports.export_expiring_xlsx(report, out)
        else:
            surety_reports.render_expiring_pdf(report, out)
        if direct and kind == "pdf":
            send_to_printer(self, "Expiry watch", out, "The expiry watch")
        else:
            dialogs.show_file(self, out, "Expiry watch")
        return out
