"""Code enforcement (Hudson ch. 140, procedure of 140-3): cases numbered CE-YYYY-NNNN, complaints
with the complainant kept confidential, inspections and violations of the housing code, notices
of violation and emergency orders frozen as issued, their addressees and service (140-3A(4)),
petitions and the Council's hearing and decision (140-3B, C), orders (140-3C, D, H) and the
escalations of an order not complied with (abatement costs: special charges, Wis. s. 66.0627).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-09
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer, primary_key=True)


def _version() -> sa.Column:
    return sa.Column("version", sa.Integer, nullable=False, server_default="1")


def _fk(table: str, column: str, referred: str, name: str = "") -> sa.ForeignKeyConstraint:
    """Named as db/schema.py names it (its naming convention, or the short name given there
    where that would pass PostgreSQL's 63 characters)."""
    return sa.ForeignKeyConstraint(
        [column], [f"{referred}.id"], name=name or f"fk_{table}_{column}_{referred}"
    )


def _pk(table: str) -> sa.PrimaryKeyConstraint:
    return sa.PrimaryKeyConstraint("id", name=f"pk_{table}")


def _who(table: str) -> list[sa.Column | sa.ForeignKeyConstraint]:
    return [
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        _fk(table, "by_user_id", "app_user"),
    ]


# (table, column) indexes, named as db/schema.py's naming convention names them.
_INDEXES = (
    ("enforcement_case", "parcel_id"),
    ("enforcement_case", "closed_on"),
    ("enforcement_complaint", "case_id"),
    ("enforcement_inspection", "case_id"),
    ("enforcement_violation", "case_id"),
    ("enforcement_violation_check", "violation_id"),
    ("enforcement_notice", "case_id"),
    ("enforcement_notice_item", "notice_id"),
    ("enforcement_addressee", "notice_id"),
    ("enforcement_service", "addressee_id"),
    ("enforcement_petition", "notice_id"),
    ("enforcement_order", "case_id"),
    ("enforcement_escalation", "case_id"),
    ("enforcement_escalation", "tax_roll_year"),
)

_TABLES = (
    "enforcement_escalation",
    "enforcement_order",
    "enforcement_petition",
    "enforcement_service",
    "enforcement_addressee",
    "enforcement_notice_item",
    "enforcement_notice",
    "enforcement_violation_check",
    "enforcement_violation",
    "enforcement_inspection",
    "enforcement_complaint",
    "enforcement_case",
)


def upgrade() -> None:
    t = "enforcement_case"
    op.create_table(
        t,
        _id(),
        _version(),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("parcel_id", sa.Integer, nullable=False),
        sa.Column("opened_on", sa.Date, nullable=False),
        sa.Column("origin", sa.String(40), nullable=False),
        sa.Column("housing_code", sa.String(40), nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("closed_on", sa.Date),
        sa.Column("closed_reason", sa.String(40)),
        sa.Column("close_note", sa.Text, nullable=False),
        sa.Column("closed_by_id", sa.Integer),
        *_who(t),
        _pk(t),
        _fk(t, "municipality_id", "municipality"),
        _fk(t, "parcel_id", "parcel"),
        _fk(t, "closed_by_id", "app_user"),
        sa.UniqueConstraint("municipality_id", "number", name="uq_enforcement_case_number"),
    )
    t = "enforcement_complaint"
    op.create_table(
        t,
        _id(),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("parcel_id", sa.Integer, nullable=False),
        sa.Column("received_on", sa.Date, nullable=False),
        sa.Column("channel", sa.String(40), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("complainant_name", sa.String(200), nullable=False),
        sa.Column("complainant_contact", sa.String(400), nullable=False),
        *_who(t),
        _pk(t),
        _fk(t, "municipality_id", "municipality"),
        _fk(t, "case_id", "enforcement_case"),
        _fk(t, "parcel_id", "parcel"),
    )
    t = "enforcement_inspection"
    op.create_table(
        t,
        _id(),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("inspected_on", sa.Date, nullable=False),
        sa.Column("inspector_id", sa.Integer, nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        *_who(t),
        _pk(t),
        _fk(t, "case_id", "enforcement_case"),
        _fk(t, "inspector_id", "app_user"),
    )
    t = "enforcement_violation"
    op.create_table(
        t,
        _id(),
        _version(),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("inspection_id", sa.Integer, nullable=False),
        sa.Column("section", sa.String(40), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("unit", sa.String(40), nullable=False),
        sa.Column("room", sa.String(80), nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("correct_by", sa.Date, nullable=False),
        sa.Column("state", sa.String(40), nullable=False),
        sa.Column("closed_on", sa.Date),
        sa.Column("closed_inspection_id", sa.Integer),
        _pk(t),
        _fk(t, "case_id", "enforcement_case"),
        _fk(t, "inspection_id", "enforcement_inspection"),
        _fk(
            t,
            "closed_inspection_id",
            "enforcement_inspection",
            "fk_enforcement_violation_closed_inspection",
        ),
    )
    t = "enforcement_violation_check"
    op.create_table(
        t,
        _id(),
        sa.Column("violation_id", sa.Integer, nullable=False),
        sa.Column("inspection_id", sa.Integer, nullable=False),
        sa.Column("checked_on", sa.Date, nullable=False),
        sa.Column("corrected", sa.Boolean, nullable=False),
        _pk(t),
        _fk(t, "violation_id", "enforcement_violation", "fk_enforcement_violation_check_violation"),
        _fk(
            t,
            "inspection_id",
            "enforcement_inspection",
            "fk_enforcement_violation_check_inspection",
        ),
    )
    t = "enforcement_notice"
    op.create_table(
        t,
        _id(),
        _version(),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("issued_on", sa.Date, nullable=False),
        sa.Column("issued_by_id", sa.Integer, nullable=False),
        sa.Column("property_address", sa.String(200), nullable=False),
        sa.Column("statement", sa.Text, nullable=False),
        sa.Column("housing_code", sa.String(40), nullable=False),
        sa.Column("hearing_on", sa.Date),
        sa.Column("hearing_place", sa.String(200), nullable=False),
        sa.Column("hearing_notice_on", sa.Date),
        sa.Column("decision", sa.String(40)),
        sa.Column("decided_on", sa.Date),
        sa.Column("findings", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True)),
        _pk(t),
        _fk(t, "case_id", "enforcement_case"),
        _fk(t, "issued_by_id", "app_user"),
    )
    t = "enforcement_notice_item"
    op.create_table(
        t,
        _id(),
        sa.Column("notice_id", sa.Integer, nullable=False),
        sa.Column("violation_id", sa.Integer, nullable=False),
        sa.Column("section", sa.String(40), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("code_text", sa.Text, nullable=False),
        sa.Column("location", sa.String(200), nullable=False),
        sa.Column("correct_by", sa.Date, nullable=False),
        sa.Column("remedial_action", sa.Text, nullable=False),
        _pk(t),
        _fk(t, "notice_id", "enforcement_notice"),
        _fk(t, "violation_id", "enforcement_violation"),
    )
    t = "enforcement_addressee"
    op.create_table(
        t,
        _id(),
        sa.Column("notice_id", sa.Integer, nullable=False),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("party_id", sa.Integer),
        _pk(t),
        _fk(t, "notice_id", "enforcement_notice"),
        _fk(t, "party_id", "party"),
    )
    t = "enforcement_service"
    op.create_table(
        t,
        _id(),
        _version(),
        sa.Column("addressee_id", sa.Integer, nullable=False),
        sa.Column("method", sa.String(40), nullable=False),
        sa.Column("served_on", sa.Date, nullable=False),
        sa.Column("served_by", sa.String(200), nullable=False),
        sa.Column("returned_on", sa.Date),
        sa.Column("agent_must_notify_owner", sa.Boolean, nullable=False),
        *_who(t),
        _pk(t),
        _fk(t, "addressee_id", "enforcement_addressee"),
    )
    t = "enforcement_petition"
    op.create_table(
        t,
        _id(),
        sa.Column("notice_id", sa.Integer, nullable=False),
        sa.Column("addressee_id", sa.Integer, nullable=False),
        sa.Column("petitioner", sa.String(200), nullable=False),
        sa.Column("filed_on", sa.Date, nullable=False),
        sa.Column("grounds", sa.Text, nullable=False),
        sa.Column("timely", sa.Boolean, nullable=False),
        *_who(t),
        _pk(t),
        _fk(t, "notice_id", "enforcement_notice"),
        _fk(t, "addressee_id", "enforcement_addressee"),
    )
    t = "enforcement_order"
    op.create_table(
        t,
        _id(),
        _version(),
        sa.Column("notice_id", sa.Integer, nullable=False),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("effective_on", sa.Date, nullable=False),
        sa.Column("revoked_on", sa.Date),
        sa.Column("superseded_on", sa.Date),
        sa.Column("at", sa.DateTime(timezone=True)),
        _pk(t),
        _fk(t, "notice_id", "enforcement_notice"),
        _fk(t, "case_id", "enforcement_case"),
        sa.UniqueConstraint("notice_id", "kind", name="uq_enforcement_order_notice_kind"),
    )
    t = "enforcement_escalation"
    op.create_table(
        t,
        _id(),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("order_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("decided_on", sa.Date, nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("reinspect_on", sa.Date),
        sa.Column("court_reference", sa.String(80), nullable=False),
        sa.Column("condemnation_id", sa.Integer),
        sa.Column("cost", sa.BigInteger),
        sa.Column("tax_roll_year", sa.Integer),
        *_who(t),
        _pk(t),
        _fk(t, "case_id", "enforcement_case"),
        _fk(t, "order_id", "enforcement_order"),
        _fk(t, "condemnation_id", "condemnation"),
    )
    for table, column in _INDEXES:
        op.create_index(f"ix_{table}_{column}", table, [column])


def downgrade() -> None:
    for table, column in _INDEXES:
        op.drop_index(f"ix_{table}_{column}", table_name=table)
    for table in _TABLES:
        op.drop_table(table)
