"""The Sureties tab of the permit window: what the permit needs in bonds, insurance
and a street deposit (resources/surety_requirements.toml, by municipality and kind), the facts
those requirements turn on as the inspector or engineer recorded them, what is on file (the
permit's own bonds, the contractor's annual bond, the certificates of its parties or of the
plumbers' association), and every shortfall in words with its section — the same list
issuance refuses on.

Buttons: Conditions… (inspector, engineer), File a bond…, File a certificate…, Take deposit…
(each shown to the roles that may use it; the services check again).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from desk.domain.enums import Role
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import PermitDetail
from desk.domain.sureties import PermitFacts
from desk.errors import DeskError
from desk.services import sureties as svc
from ui import dialogs
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.formatting import EMPTY
from ui.presenters.sureties import Fact, PermitSuretiesPresenter, parse_money
from ui.views.common import page_scroll, read_only_table, section_title
from ui.views.deposits import LinesModel

WARN = QColor(160, 82, 0)


class _OnFileModel(LinesModel):
    colour = WARN  # expired, awaiting payment


TITLE = "Sureties"
FACT_ROLES = frozenset({Role.INSPECTOR, Role.ENGINEER, Role.ADMINISTRATOR})


class FactsDialog(ActionDialog):
    """The conditions the inspector or engineer records for this permit."""

    def __init__(
        self,
        context: PermitContext,
        facts: PermitFacts,
        choices: tuple[Fact, ...],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            context,
            "Bond, insurance and deposit conditions",
            "What this permit's requirements turn on, as the Building Inspector or the City "
            "Engineer finds or fixes them. The amounts are checked against the ordinance's "
            "minimum and maximum.",
            "&Save",
            parent,
        )
        self.facts = facts
        self.boxes: dict[str, QCheckBox] = {}
        self.amounts: dict[str, QLineEdit] = {}
        for fact in choices:
            value = getattr(facts, fact.name)
            if fact.amount:
                edit = QLineEdit("" if value is None else f"{value:.2f}", self)
                edit.setObjectName(f"fact_{fact.name}")
                edit.setPlaceholderText("not set")
                self.amounts[fact.name] = edit
                self.add_field(f"{fact.label}:", edit, fact.name)
            else:
                box = QCheckBox(fact.label, self)
                box.setObjectName(f"fact_{fact.name}")
                box.setChecked(bool(value))
                self.boxes[fact.name] = box
                self.add_field("", box, fact.name)

    def run(self) -> None:
        changes: dict[str, Any] = {name: box.isChecked() for name, box in self.boxes.items()}
        for name, edit in self.amounts.items():
            changes[name] = parse_money(edit.text(), name, required=False)
        ctx = self.context
        svc.set_permit_facts(
            ctx.database.uow(),
            ctx.clock,
            ctx.session.actor,
            ctx.permit_id,
            replace(self.facts, **changes),
        )


class SuretiesTab(PermitTab):
    key = "sureties"
    title = TITLE

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: PermitSuretiesPresenter | None = None
        self.detail: PermitDetail | None = None
        roles = context.session.actor.roles
        self.status = QLabel(self)
        self.status.setObjectName("suretiesStatus")
        self.status.setWordWrap(True)
        self.shortfalls = QLabel(self)
        self.shortfalls.setObjectName("suretiesShortfalls")
        self.shortfalls.setWordWrap(True)
        self.shortfalls.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.requirements = QLabel(self)
        self.requirements.setObjectName("suretiesRequirements")
        self.requirements.setWordWrap(True)
        self.requirements.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts_label = QLabel(self)
        self.facts_label.setObjectName("suretiesFacts")
        self.facts_label.setWordWrap(True)
        self.model = _OnFileModel(None, self)
        self.table = read_only_table(self, "suretiesOnFile", self.model)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.empty = QLabel("Nothing is on file for this permit.", self)
        self.empty.setObjectName("noteText")

        self.facts_button = QPushButton("Con&ditions…", self)
        self.facts_button.setObjectName("suretyFacts")
        self.facts_button.setVisible(bool(roles & FACT_ROLES))
        self.bond_button = QPushButton("File a &bond…", self)
        self.bond_button.setObjectName("fileBond")
        self.certificate_button = QPushButton("File a certificate of &insurance…", self)
        self.certificate_button.setObjectName("fileCertificate")
        for b in (self.bond_button, self.certificate_button):
            b.setVisible(allowed(context.session.actor, Permission.MANAGE_PARTIES))
        self.deposit_button = QPushButton("Take de&posit…", self)
        self.deposit_button.setObjectName("takeDeposit")
        self.deposit_button.setVisible(allowed(context.session.actor, Permission.TAKE_PAYMENT))
        buttons = QHBoxLayout()
        for b, slot in (
            (self.facts_button, self.edit_facts),
            (self.bond_button, self.file_bond),
            (self.certificate_button, self.file_certificate),
            (self.deposit_button, self.take_deposit),
        ):
            b.setAutoDefault(False)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        buttons.addStretch(1)

        page = QWidget(self)
        inner = QVBoxLayout(page)
        inner.setContentsMargins(12, 12, 12, 12)
        inner.setSpacing(6)
        inner.addWidget(self.status)
        inner.addWidget(self.shortfalls)
        inner.addWidget(section_title("Required"))
        inner.addWidget(self.requirements)
        inner.addWidget(section_title("Conditions recorded"))
        inner.addWidget(self.facts_label)
        inner.addWidget(section_title("On file"))
        inner.addWidget(self.table)
        inner.addWidget(self.empty)
        inner.addStretch(1)
        scroll = page_scroll(self)
        scroll.setWidget(page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 8)
        layout.addWidget(scroll, 1)
        holder = QHBoxLayout()
        holder.setContentsMargins(12, 0, 12, 0)
        holder.addLayout(buttons)
        layout.addLayout(holder)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        self.detail = detail
        view = svc.permit_sureties(self.context.database.uow(), self.context.clock, detail.id)
        p = PermitSuretiesPresenter(view)
        self.presenter = p
        self.status.setText(p.status_text)
        self.status.setProperty("warning", bool(view.shortfalls))
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        self.shortfalls.setText("\n".join(f"•  {s}" for s in view.shortfalls))
        self.shortfalls.setVisible(bool(view.shortfalls))
        lines = [f"•  {t}" for t in p.requirements_text]
        lines += [f"•  {t}" for t in view.exemptions]
        lines += [f"•  {t}" for t in view.notes]  # e.g. the association's cover (15.1.38(b))
        lines += [f"•  At completion: {t}" for t in view.completion]
        self.requirements.setText("\n".join(lines))
        facts = [f"{f.label}: {p.fact_text(f)}" for f in p.facts]
        self.facts_label.setText("\n".join(facts) or EMPTY)
        self.facts_button.setEnabled(bool(p.facts))
        self.deposit_button.setEnabled(detail.kind in ("SEWER-WATER", "PLUMBING"))
        self.model.set_presenter(p)
        self.table.setVisible(bool(p.rows))
        self.empty.setVisible(not p.rows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in (2, 3):  # the holder and the limits share the width, elided
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        rows = self.model.rowCount()
        height = (
            header.sizeHint().height() + rows * self.table.verticalHeader().defaultSectionSize()
        )
        self.table.setFixedHeight(min(height + 2 * self.table.frameWidth() + 2, 320))

    def refresh(self) -> None:
        from ui.permit.window import PermitWindow

        window = self.window()
        if isinstance(window, PermitWindow):
            window.reload()
        elif self.detail is not None:
            with self.context.database.read() as conn:
                self.load(conn, self.detail)

    def edit_facts(self) -> None:
        if self.presenter is None:
            return
        dialog = FactsDialog(self.context, self.presenter.view.facts, self.presenter.facts, self)
        if actions.exec_dialog(dialog):
            self.refresh()

    def file_bond(self) -> None:
        from ui.views.bonds import BondDialog

        detail = self.detail
        number = (detail.number or f"#{detail.id}") if detail is not None else ""
        if actions.exec_dialog(BondDialog(self.context, permit_numbers=number, parent=self)):
            self.refresh()

    def file_certificate(self) -> None:
        from ui.views.bonds import CertificateDialog

        if actions.exec_dialog(CertificateDialog(self.context, parent=self)):
            self.refresh()

    def take_deposit(self) -> None:
        from ui.views.deposits import TakeDepositDialog

        try:
            dialog = TakeDepositDialog(self.context, self)
        except DeskError as e:
            dialogs.warn(self, "Take a street deposit", str(e))
            return
        if actions.exec_dialog(dialog):
            self.refresh()
