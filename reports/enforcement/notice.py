"""The notice of violation (Hudson 140-3A) and the emergency order (140-3H) as issued.

A pure renderer over the frozen desk.enforcement.readmodels.NoticeDocument
(db/enforcement_queries.py notice_document): a reprint is the same document, whatever happened
since (a Council's modified date is a fact of the hearing record, not of the notice). The
complainant is not in the read model and never printed.

One copy per addressee, each on its own page(s) and addressed to that person, with the others
served named under it (140-3A(4): "a copy thereof is served upon him"); the file copy in the
record of hearing (hearing.py) lists all of them in one addressee block.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import CondPageBreak, KeepTogether, PageBreak, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.domain.documents import Letterhead
from desk.domain.reports import CodeCitations, code_citations
from desk.enforcement.procedure import Procedure, ProcedureError, load_procedure
from desk.enforcement.readmodels import NoticeDocument, NoticeDocumentItem
from desk.housing.codes import HousingCodeError, load_housing_code
from reports.common import (
    RED,
    RULE,
    TEXT_WIDTH,
    build_pdf,
    day,
    facts_table,
    header,
    letterhead_lines,
    para,
    signature,
    signature_image,
    styles,
)
from reports.fonts import register_fonts

NOTICE_TITLE = "Notice of violation"
EMERGENCY_TITLE = "Emergency order"
# 140-3B, 140-3D, 140-3H: the petition is filed in (or made to) the Building Inspector's office.
PETITION_OFFICE = "the office of the Building Inspector"
HUDSON = code_citations("hudson-140")


def title_of(doc: NoticeDocument) -> str:
    return EMERGENCY_TITLE if doc.kind == "emergency" else NOTICE_TITLE


def municipality_name(letterhead: Letterhead | Sequence[str]) -> str:
    name = letterhead.name if isinstance(letterhead, Letterhead) else ""
    lines = [x for x in letterhead if x.strip()]
    return name or (lines[0] if lines else "the municipality")


def office_address(letterhead: Letterhead | Sequence[str]) -> str:
    """Where a petition is filed: the municipality and the office's address, from the
    letterhead's lines and address."""
    name = municipality_name(letterhead)
    lines = letterhead_lines(letterhead, name)
    return ", ".join([name, *(x for x in lines if x != name)])


@cache
def code_name(key: str) -> str:
    """The housing code's name (resources/housing_codes); its key when it is not shipped."""
    try:
        return load_housing_code(key).name
    except HousingCodeError:
        return key


def signer_title(letterhead: Letterhead | Sequence[str], signer: str) -> str:
    """The letterhead's inspector title when the signer is its inspector; 140-3A: the Building
    Inspector gives the notice."""
    if isinstance(letterhead, Letterhead) and letterhead.inspector_title:
        same = (
            " ".join(signer.split()).casefold()
            == " ".join(letterhead.inspector_name.split()).casefold()
        )
        if same:
            return letterhead.inspector_title
    return "Building Inspector"


def service_text(c: CodeCitations = HUDSON) -> str:
    """140-3A(4), in the ordinance's words (the procedure Permit Desk follows for every code;
    a code that numbers none cites its own, desk.domain.reports.CodeCitations.step)."""
    return (
        "This notice is served upon the owner or his agent or the occupant, as the case may "
        "require. It is properly served if a copy is served personally, or is sent by "
        "registered mail to the last known address, or is posted in a conspicuous place in or "
        "about the dwelling affected, or is served by any other method authorized or required "
        f"under the laws of this state ({c.step('140-3A(4)')})."
    )


def procedure_of(doc: NoticeDocument) -> Procedure | None:
    """The Wis. Stat. ch. 68 procedure when the notice's case follows it; None for Hudson's."""
    try:
        proc = load_procedure(doc.procedure)
    except ProcedureError:
        return None
    return proc if proc.review else None


def review_text(
    doc: NoticeDocument, letterhead: Letterhead | Sequence[str], proc: Procedure
) -> str:
    """Wis. Stat. ch. 68 for a code with no procedure of its own: the right to request review
    of this determination within 30 days of notice (68.08), and to whom; the decision on
    review (68.09) and the appeal from it (68.10)."""
    request = proc.request
    days = doc.request_days
    where = f"{proc.filed_with}, {office_address(letterhead)}"
    ask = (
        "You may request review of this determination by a written request, stating your "
        f"grounds, mailed or delivered to {where}, within {days} days of service of this "
        f"{'order' if doc.kind == 'emergency' else 'notice'} on you ({request.section}). "
        f"{_capital(proc.decided_by)} will review the determination and decide in writing, "
        "affirming, modifying or reversing it and stating the reasons and your right to appeal "
        f"({proc.period('review').section}, {proc.decision_section}); you may appeal that "
        "decision within "
        f"{proc.days('appeal')} days of notice of it ({proc.period('appeal').section})."
    )
    if doc.kind == "emergency":
        return (
            f"{ask} This order is effective immediately and remains in effect unless it is "
            "modified or reversed on review or appeal."
        )
    return (
        f"{ask} If no review is requested within {days} days of service, this determination "
        f"stands and becomes an order ({proc.no_filing_section})."
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def petition_text(
    doc: NoticeDocument, letterhead: Letterhead | Sequence[str], c: CodeCitations = HUDSON
) -> str:
    """The right to a hearing before the Common Council (140-3B; 140-3H for an order); under
    Wis. Stat. ch. 68 (Ch. 512) the right to request review (review_text)."""
    proc = procedure_of(doc)
    if proc is not None:
        return review_text(doc, letterhead, proc)
    where = f"{PETITION_OFFICE}, {office_address(letterhead)}"
    if doc.kind == "emergency":
        both = "140-3H, 140-3B" if c.numbers_its_procedure else c.procedure
        return (
            "Upon petition to the Building Inspector you shall be afforded a hearing before the "
            f"Common Council as soon as possible ({both}). File a written petition "
            f"requesting the hearing, with a brief statement of the grounds for it, in {where}. "
            "The order remains in effect until the Common Council continues, modifies or "
            f"revokes it after the hearing ({c.step('140-3H')})."
        )
    return (
        "You may request a hearing on this notice before the Common Council by filing a "
        "written petition requesting the hearing, with a brief statement of the grounds for "
        f"it, in {where}, within 10 days after service of this notice ({c.step('140-3B')}). If "
        "no petition is filed within 10 days after service, this notice automatically becomes "
        f"an order ({c.step('140-3D')})."
    )


def effect_text(doc: NoticeDocument, c: CodeCitations = HUDSON) -> str:
    if doc.kind == "emergency":
        return (
            "The Building Inspector finds that an emergency exists which requires immediate "
            "action to protect the public health. This order is effective immediately, from "
            f"{day(doc.issued_on)}, and the action below must be taken at once "
            f"({c.step('140-3H')})."
        )
    return (
        "The Building Inspector has determined that there are reasonable grounds to believe "
        "that the provisions below, which affect the health or safety of the occupants or of "
        f"the public, are violated at the dwelling named above ({c.step('140-3A')})."
    )


def _item(k: int, item: NoticeDocumentItem, st: dict[str, ParagraphStyle]) -> Flowable:
    head = ParagraphStyle("item_head", st["base"], fontName=st["muni"].fontName, fontSize=10)
    # Tight enough that a typical notice (two or three violations) is one page a copy.
    value = ParagraphStyle("item_value", st["base"], fontSize=9, leading=11.5)
    due = ParagraphStyle("item_due", value, fontName=st["muni"].fontName)
    rows = [
        ("Code", f"“{item.code_text}”"),
        ("Where", item.location or "The dwelling"),
        ("Remedial action", item.remedial_action),
    ]
    facts = _tight(facts_table(rows, st["label"], value, 1.25 * inch, padding=1.5))
    due_row = _tight(
        facts_table(
            [("Correct by", day(item.correct_by))], st["label"], due, 1.25 * inch, padding=1.5
        )
    )
    box = Table([[para(f"{k}. {item.section} — {item.title}", head)], [facts], [due_row]])
    box.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, -1), (-1, -1), 0.5, RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return KeepTogether([box, Spacer(1, 4)])


def _tight(table: Table) -> Table:
    """A facts table with 1 point over each line (the shared one has 3)."""
    table.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 1)]))
    return table


def _side_by_side(facts: Sequence[tuple[str, str]], st: dict[str, ParagraphStyle]) -> Table:
    """The case's facts in two columns (case and dwelling on the left, the date and the code on
    the right): a line each would take the room the right to a hearing needs on the page."""
    half = TEXT_WIDTH / 2
    left, right = facts[0::2], facts[1::2]
    tables = [
        _tight(
            facts_table(column, st["label"], st["base"], 0.95 * inch, width=half - 6, padding=1.5)
        )
        for column in (left, right)
    ]
    outer = Table([tables], colWidths=[half, half], hAlign="LEFT")
    outer.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return outer


def notice_story(
    doc: NoticeDocument, letterhead: Letterhead | Sequence[str], to: int | None = None
) -> list[Flowable]:
    """The notice's pages: the copy for addressee `to` (an index of doc.addressees), or, with
    None, the file copy naming every addressee."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    body = ParagraphStyle("body", st["base"], fontSize=9.5, leading=11.8)
    section = ParagraphStyle(
        "section", st["base"], fontName=bold, fontSize=10.5, leading=13, spaceBefore=4
    )
    c = code_citations(doc.housing_code)  # the code the case was opened under
    title = title_of(doc)
    title_style = st["title"]
    if doc.kind == "emergency":
        title_style = ParagraphStyle("title_red", st["title"], textColor=RED)
    facts = [
        ("Case", doc.case_number),
        ("Date issued", day(doc.issued_on)),
        ("Dwelling", doc.property_address),
        ("Housing code", code_name(doc.housing_code)),
    ]
    if doc.kind == "emergency":
        facts.append(("Effective", f"Immediately, {day(doc.issued_on)} ({c.step('140-3H')})"))
    people = list(doc.addressees) if to is None else [doc.addressees[to]]
    to_rows = [(role.capitalize(), f"{name}, {address}") for role, name, address in people]
    others = [a for n, a in enumerate(doc.addressees) if to is not None and n != to]
    under = c.step("140-3H" if doc.kind == "emergency" else "140-3A")
    story: list[Flowable] = [
        *header(municipality_name(letterhead), letterhead, st),
        para(title, title_style),
        para(f"Written {title.lower()} under {under}", st["label"]),
        Spacer(1, 4),
        _side_by_side(facts, st),
        Spacer(1, 3),
        para("To", ParagraphStyle("to", section, spaceBefore=0)),
        _tight(facts_table(to_rows, st["label"], body, 0.95 * inch, padding=1.5)),
    ]
    if others:
        story.append(
            para(
                "The same notice is served on: "
                + "; ".join(f"{name} ({role}), {address}" for role, name, address in others),
                st["label"],
            )
        )
    story += [
        CondPageBreak(1.2 * inch),
        para(
            c.heading("Reasons for this order", "140-3H")
            if doc.kind == "emergency"
            else c.heading("Reasons for this notice", "140-3A(2)"),
            section,
        ),
        para(effect_text(doc, c), body),
        Spacer(1, 4),
        para(doc.statement, body),
        CondPageBreak(1.6 * inch),
        para(
            c.heading("Violations, remedial action and time to correct", "140-3A(3), (5)"), section
        ),
        para(
            "Each violation below is to be corrected by its date. The remedial action given for "
            "it outlines what, if done, will bring the dwelling into compliance.",
            body,
        ),
        Spacer(1, 4),
        *(_item(k, item, st) for k, item in enumerate(doc.items, 1)),
        # A heading stays with its text; the right to a hearing with the signature.
        KeepTogether(
            [para(c.heading("Service", "140-3A(4)"), section), para(service_text(c), body)]
        ),
    ]
    signer = doc.issued_by
    ch68 = procedure_of(doc)
    if ch68 is not None:  # Wis. Stat. 68.08
        hearing_head = f"Your right to request review ({ch68.request.section})"
    elif doc.kind == "emergency":
        hearing_head = c.heading("Emergency order: hearing", "140-3H")
    else:
        hearing_head = c.heading("Your right to a hearing", "140-3B")
    story.append(
        KeepTogether(
            [
                para(hearing_head, section),
                para(petition_text(doc, letterhead, c), body),
                Spacer(1, 16),
                *signature(
                    st,
                    signer,
                    signer_title(letterhead, signer),
                    signature_image(letterhead, signer),
                ),
            ]
        )
    )
    return story


def render_notice(doc: NoticeDocument, letterhead: Letterhead | Sequence[str], out: Path) -> None:
    """The notice as issued: one copy per addressee (140-3A(4)), each starting a page."""
    regular, _bold = register_fonts()
    story: list[Flowable] = []
    for k in range(len(doc.addressees)) or [None]:
        if story:
            story.append(PageBreak())
        story += notice_story(doc, letterhead, k)
    title = title_of(doc)
    name = municipality_name(letterhead)
    build_pdf(
        out,
        story,
        font=regular,
        title=f"{title} — {doc.case_number}",
        author=name,
        footer=f"{name} — {title.lower()} {doc.case_number}, issued {day(doc.issued_on)}",
        margins=(0.5 * inch, 0.6 * inch),  # a typical notice on one page a copy
    )
