"""The Parties tab: who is on the permit in which role, how to reach them, and whether the
licences on record fit the role on this kind of permit today (✓ / ✗)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db.permit_queries import permit_party_credentials
from desk.domain.kinds import PermitKind, kind_by_code
from desk.domain.readmodels import PermitDetail
from desk.errors import ValidationError
from ui.permit.base import PermitContext, PermitTab
from ui.person.permit_bar import PersonBar
from ui.presenters.permit_parties import (
    FITS,
    NOT_NEEDED,
    CredentialRow,
    PartyCard,
    PermitPartiesPresenter,
)
from ui.views.common import page_scroll

COLUMNS = ("Role", "Name", "Mailing address", "Phone")


def _label(text: str, name: str, *, wrap: bool = False) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _kind(detail: PermitDetail) -> PermitKind | None:
    try:
        return kind_by_code(detail.municipality_key, detail.kind)
    except ValidationError:
        return None  # a kind no longer shipped: no credential rule to check against


class PartiesTab(PermitTab):
    key = "parties"
    title = "Parties"

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: PermitPartiesPresenter | None = None
        self._scroll = page_scroll(self)
        # A party's new phone, address or renewed credential, recorded from the permit.
        self.person_bar = PersonBar(context, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.person_bar)
        layout.addWidget(self._scroll)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        self.presenter = PermitPartiesPresenter(
            detail.parties,
            permit_party_credentials(conn, detail.id),
            _kind(detail),
            self.context.clock.today(),
        )
        body = QWidget()
        body.setObjectName("summaryBody")
        outer = QVBoxLayout(body)
        outer.setContentsMargins(20, 16, 20, 16)
        outer.setSpacing(10)
        self.summary_label = _label(self.presenter.summary, "noteText", wrap=True)
        outer.addWidget(self.summary_label)
        if not self.presenter.empty:
            outer.addLayout(self._grid(self.presenter.cards))
        outer.addStretch(1)
        self._scroll.setWidget(body)
        self.person_bar.load(detail.parties)

    def _grid(self, cards: tuple[PartyCard, ...]) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(4)
        for col, heading in enumerate(COLUMNS):
            label = QLabel(heading)
            label.setObjectName("columnHeading")
            grid.addWidget(label, 0, col)
        row = 1
        for card in cards:
            grid.setRowMinimumHeight(row, 10)  # air between parties
            row += 1
            top = Qt.AlignmentFlag.AlignTop
            grid.addWidget(_label(card.role, "fieldLabel"), row, 0, top)
            grid.addWidget(_label(card.name, "partyName", wrap=True), row, 1, top)
            grid.addWidget(_label(card.address, "fieldValue", wrap=True), row, 2, top)
            grid.addWidget(_label(card.phone, "fieldValue"), row, 3, top)
            row += 1
            if card.credentials:
                grid.addWidget(self._credentials(card.credentials), row, 1, 1, 3)
                row += 1
            if card.needs != NOT_NEEDED:
                # Met: which credential the role needs, quietly. Not met: the check's words.
                line = (
                    _label(card.needs, "noteText", wrap=True)
                    if card.ok
                    else _label(f"✗  {card.verdict}", "credentialVerdict", wrap=True)
                )
                grid.addWidget(line, row, 1, 1, 3)
                row += 1
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(2, 3)
        grid.setColumnStretch(3, 1)
        return grid

    def _credentials(self, rows: tuple[CredentialRow, ...]) -> QWidget:
        """The licences on record, aligned in their own little table under the party."""
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        grid.setColumnMinimumWidth(0, self.fontMetrics().horizontalAdvance(FITS) + 2)
        for r, c in enumerate(rows):
            name = "credentialOk" if c.mark == FITS else "credentialBad" if c.mark else "fieldValue"
            grid.addWidget(_label(c.mark, name), r, 0)
            grid.addWidget(_label(c.kind, "fieldValue"), r, 1)
            grid.addWidget(_label(c.number, "fieldValue"), r, 2)
            grid.addWidget(_label(c.expires, "fieldValue"), r, 3)
            grid.addWidget(_label(c.note, name if c.mark else "noteText"), r, 4)
        grid.setColumnStretch(4, 1)
        return box

    def texts(self) -> list[str]:
        """Every text the tab shows, in order (tests read the tab as a clerk would)."""
        body = self._scroll.widget()
        if body is None:
            return []
        return [w.text() for w in body.findChildren(QLabel) if w.text()]
