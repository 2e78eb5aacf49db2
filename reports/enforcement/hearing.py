"""The Common Council's hearing of a notice (Hudson 140-3B, C, F; 140-3H for an emergency order):

- the written notice of hearing to each petitioner (140-3B);
- the record of hearing (140-3F): the summary of the proceedings, the findings and decision
  (140-3C) and a copy of every notice or order of the matter;
- the Council's hearing docket for one meeting date.

Pure renderers over db/enforcement_queries.py HearingRow, NoticeDocument and TimelineEntry.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from db.enforcement_queries import HearingRow
from desk.domain.documents import Letterhead
from desk.domain.reports import code_citations
from desk.enforcement.readmodels import NoticeDocument, TimelineEntry
from reports.common import (
    INK,
    MUTED,
    RULE,
    SHADE,
    build_pdf,
    day,
    facts_table,
    header,
    para,
    signature,
    signature_image,
    styles,
)
from reports.enforcement.notice import municipality_name, notice_story
from reports.fonts import register_fonts

HEARING_NOTICE_TITLE = "Notice of hearing"
RECORD_TITLE = "Record of hearing"
DOCKET_TITLE = "Common Council hearing docket"

# 140-3C; 140-3H names the same three decisions for an emergency order in its own words.
_DECISION = {
    "notice": {"sustain": "sustained", "modify": "modified", "withdraw": "withdrew"},
    "emergency": {"sustain": "continued in effect", "modify": "modified", "withdraw": "revoked"},
}
# The timeline's kinds that are notices and orders of the matter and their steps (140-3F).
_MATTER = ("notice", "service", "petition", "hearing", "decision", "order")


def notice_words(h: HearingRow, *, lower: bool = False) -> str:
    kind = "Emergency order" if h.kind == "emergency" else "Notice of violation"
    kind = kind.lower() if lower else kind
    return f"{kind} of {day(h.issued_on)}, case {h.case_number}"


def _styles() -> tuple[str, dict[str, ParagraphStyle]]:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    st["body"] = ParagraphStyle("body", st["base"], fontSize=10, leading=13.5)
    st["section"] = ParagraphStyle(
        "section", st["base"], fontName=bold, fontSize=11, leading=14, spaceBefore=8
    )
    return regular, st


def _inspector(letterhead: Letterhead | Sequence[str]) -> tuple[str, str]:
    """(name, title) of the Building Inspector, who arranges the hearing (140-3B); the title
    once when the letterhead has no name but the title."""
    if isinstance(letterhead, Letterhead) and letterhead.inspector_name:
        title = letterhead.inspector_title or "Building Inspector"
        return letterhead.inspector_name, "" if title == letterhead.inspector_name else title
    return "Building Inspector", ""


# --- the written notice of hearing (140-3B) ----------------------------------------------------


def hearing_notice_text(h: HearingRow) -> str:
    step = code_citations(h.housing_code).step  # Hudson 140-3, or the code's own procedure
    after = (
        "After the hearing the Common Council shall continue the order in effect, modify it "
        f"or revoke it ({step('140-3H')})."
        if h.kind == "emergency"
        else "After the hearing the Common Council shall sustain, modify or withdraw the notice, "
        "depending upon its findings as to whether the provisions of the housing code have "
        f"been complied with ({step('140-3C')})."
    )
    return (
        f"Your petition for a hearing on the {notice_words(h, lower=True)} has been received. "
        f"The hearing before the Common Council will be held on {day(h.hearing_on)} at "
        f"{h.place} ({step('140-3B')}). At the hearing you will be given an opportunity to be "
        "heard and to show cause why the notice should not be complied with "
        f"({step('140-3B')}). {after}"
    )


def render_hearing_notice(h: HearingRow, letterhead: Letterhead | Sequence[str], out: Path) -> None:
    """The written notice of the hearing's date, time and place to each petitioner (140-3B),
    a page each."""
    regular, st = _styles()
    under = code_citations(h.housing_code).step("140-3B")
    name = municipality_name(letterhead)
    signer, title = _inspector(letterhead)
    story: list[Flowable] = []
    for p in h.petitions or ():
        if story:
            story.append(PageBreak())
        facts = [
            ("Date of notice", day(h.notice_sent_on) if h.notice_sent_on else ""),
            ("To", f"{p.petitioner}, {p.address}"),
            ("Case", h.case_number),
            ("Dwelling", h.property_address),
            ("Notice heard", notice_words(h)),
            ("Petition filed", day(p.filed_on)),
            ("Hearing date", day(h.hearing_on)),
            ("Time and place", h.place),
        ]
        story += [
            *header(name, letterhead, st),
            para(HEARING_NOTICE_TITLE, st["title"]),
            para(f"Written notice to the petitioner under {under}", st["label"]),
            Spacer(1, 8),
            facts_table(facts, st["label"], st["body"], 1.4 * inch, padding=3),
            Spacer(1, 10),
            para(hearing_notice_text(h), st["body"]),
            Spacer(1, 30),
            *signature(st, signer, title, signature_image(letterhead, signer)),
        ]
    if not story:
        story = [*header(name, letterhead, st), para("No petition to notify.", st["body"])]
    build_pdf(
        out,
        story,
        font=regular,
        title=f"{HEARING_NOTICE_TITLE} — {h.case_number}",
        author=name,
        footer=f"{name} — notice of hearing {h.case_number}, notice of {day(h.issued_on)}",
    )


# --- the record of hearing (140-3F) ------------------------------------------------------------


def decision_text(h: HearingRow) -> str:
    if h.decision is None or h.decided_on is None:
        return "No decision of the Common Council is recorded yet."
    step = code_citations(h.housing_code).step
    verb = _DECISION["emergency" if h.kind == "emergency" else "notice"][h.decision]
    what = "the emergency order" if h.kind == "emergency" else "the notice"
    section = step("140-3H" if h.kind == "emergency" else "140-3C")
    if h.decision == "withdraw" and h.kind != "emergency":
        return f"On {day(h.decided_on)} the Common Council withdrew {what} ({section})."
    tail = ""
    if h.kind != "emergency" and h.decision in ("sustain", "modify"):
        tail = f" The notice is deemed to be an order ({step('140-3C')})."
    return f"On {day(h.decided_on)} the Common Council {verb} {what} ({section}).{tail}"


def _table(
    head: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[float], cell: Any
) -> Table:
    hs = ParagraphStyle("th", cell, fontName=register_fonts()[1], textColor=MUTED)
    data = [[para(x, hs) for x in head]] + [[para(x, cell) for x in r] for r in rows]
    t = Table(data, colWidths=[w * inch for w in widths], hAlign="LEFT", repeatRows=1)
    cmds: list[tuple[Any, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("TEXTCOLOR", (0, 1), (-1, -1), INK),
    ]
    if len(data) > 2:
        cmds.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, SHADE]))
    t.setStyle(TableStyle(cmds))
    return t


def render_hearing_record(
    h: HearingRow,
    notices: Sequence[NoticeDocument],
    timeline: Sequence[TimelineEntry],
    letterhead: Letterhead | Sequence[str],
    out: Path,
) -> None:
    """The record of the hearing (140-3F): the hearing, the petitions, the summary and findings,
    the decision (140-3C) and the correction dates as they now stand, the notices and orders
    of the matter (the case's timeline), then a copy of each notice as issued."""
    regular, st = _styles()
    c = code_citations(h.housing_code)
    name = municipality_name(letterhead)
    cell = ParagraphStyle("cell", st["cell"])
    facts = [
        ("Case", h.case_number),
        ("Dwelling", h.property_address),
        ("Notice heard", notice_words(h)),
        ("Hearing", f"{day(h.hearing_on)}, {h.place}"),
        (
            "Written notice",
            f"sent to the petitioner on {day(h.notice_sent_on)}" if h.notice_sent_on else "",
        ),
    ]
    petitions = [
        (p.petitioner, day(p.filed_on), "timely" if p.timely else "late", p.grounds)
        for p in h.petitions
    ]
    modified = h.decision == "modify"
    items = [
        (
            i.section,
            f"{i.title}" + (f" ({i.location})" if i.location else ""),
            day(i.correct_by_issued),
            day(i.correct_by_now) if (modified or i.correct_by_now != i.correct_by_issued) else "",
            i.state,
        )
        for i in h.items
    ]
    matter = [(day(e.on), e.section, e.text) for e in timeline if e.kind in _MATTER]
    story: list[Flowable] = [
        *header(name, letterhead, st),
        para(RECORD_TITLE, st["title"]),
        para(
            "Summarized, reduced to writing and entered as a matter of public record in the "
            f"offices of the Common Council ({c.step('140-3F')})",
            st["label"],
        ),
        Spacer(1, 8),
        facts_table(facts, st["label"], st["base"], 1.3 * inch, padding=3),
        para(c.heading("Petitions", "140-3B"), st["section"]),
        _table(("Petitioner", "Filed", "", "Grounds"), petitions, (1.7, 0.8, 0.6, 3.9), cell),
        para(c.heading("Summary of the proceedings and findings", "140-3F"), st["section"]),
        para(h.findings or "Not yet recorded.", st["body"]),
        para("Decision of the Common Council", st["section"]),
        para(decision_text(h), st["body"]),
        para("Violations of the notice", st["section"]),
        _table(
            ("Section", "Violation", "Correct by (as issued)", "As modified", "State"),
            items,
            (0.9, 3.0, 1.2, 1.0, 0.9),
            cell,
        ),
        para(c.heading("Notices and orders of the matter", "140-3F"), st["section"]),
        _table(("Date", "Section", "What"), matter, (0.85, 0.85, 5.3), cell),
        Spacer(1, 6),
        para(
            "A copy of every notice of the matter, as issued, follows "
            f"({len(notices)} {'notice' if len(notices) == 1 else 'notices'}). An order of "
            "the matter is the notice it rests on, in effect as listed above.",
            st["label"],
        ),
    ]
    for doc in notices:
        story.append(PageBreak())
        story.append(para(f"Copy for the record — {h.case_number}", st["note"]))
        story += notice_story(doc, letterhead, None)
    build_pdf(
        out,
        story,
        font=regular,
        title=f"{RECORD_TITLE} — {h.case_number}",
        author=name,
        footer=f"{name} — record of hearing {h.case_number}, notice of {day(h.issued_on)}",
        page_label="Page {page} of {pages}",
    )


# --- the Council's hearing docket ---------------------------------------------------------------


def render_hearing_docket(
    on: date,
    rows: Sequence[HearingRow],
    letterhead: Letterhead | Sequence[str],
    out: Path,
    code: str = "",
) -> None:
    """The hearings before the Common Council on `on` (140-3B): case, address, the notice heard
    and its date, the petitioner(s) and the place, cited as the hearings' code cites its
    procedure (`code`, the municipality's, when there is none)."""
    regular, st = _styles()
    step = code_citations(rows[0].housing_code if rows else (code or None)).step
    name = municipality_name(letterhead)
    cell = ParagraphStyle("cell", st["cell"])
    data = [
        (
            r.case_number,
            r.property_address,
            ("Emergency order " if r.kind == "emergency" else "Notice ") + day(r.issued_on),
            "; ".join(p.petitioner for p in r.petitions),
            r.place,
        )
        for r in rows
    ]
    story: list[Flowable] = [
        *header(name, letterhead, st),
        para(DOCKET_TITLE, st["title"]),
        para(f"Hearings of {day(on)} ({step('140-3B')})", st["label"]),
        Spacer(1, 10),
    ]
    if data:
        story.append(
            _table(
                ("Case", "Address", "Notice", "Petitioner", "Place"),
                data,
                (1.05, 1.75, 1.35, 1.5, 1.35),
                cell,
            )
        )
    else:
        story.append(para(f"No hearing is scheduled for {day(on)}.", st["body"]))
    story.append(Spacer(1, 8))
    story.append(
        para(
            f"{len(rows)} {'hearing' if len(rows) == 1 else 'hearings'}. At each hearing the "
            "petitioner is given an opportunity to be heard and to show cause why the notice "
            f"should not be complied with ({step('140-3B')}).",
            st["label"],
        )
    )
    build_pdf(
        out,
        story,
        font=regular,
        title=f"{DOCKET_TITLE} — {day(on)}",
        author=name,
        footer=f"{name} — hearing docket {day(on)}",
        page_label="Page {page} of {pages}",
    )
