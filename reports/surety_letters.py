"""Reminder letters to contractors whose bond or certificate of insurance ends soon (or has
ended while a permit still relies on it): one page per letter, mail-merged from the expiry
watch, on the municipality's letterhead and signed by its inspector. A pure renderer over
desk.services.sureties.ReminderLetter."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, SimpleDocTemplate, Spacer
from reportlab.platypus.flowables import Flowable

from desk.services.sureties import ReminderLetter
from reports.common import MARGIN, MUTED, day, header, para, styles
from reports.fonts import register_fonts

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip


def dateline(d: date) -> str:
    """A letter's date line, as a formal letter is dated: 'March 2, 2026' (the only long form;
    not strftime('%B'), which follows the workstation's locale). Dates in the body are short."""
    return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"


def letter_paragraphs(x: ReminderLetter) -> list[str]:
    """The body of the letter, paragraph by paragraph (tests read these words)."""
    r = x.row
    thing = "bond" if r.what == "Bond" else "certificate of insurance"
    ref = f" {r.reference}" if r.reference else ""
    issuer = f" issued by {r.issuer}" if r.issuer else ""
    if r.expired:
        first = f"Our records show that your {thing}{ref}{issuer} ended on {day(r.ends_on)}."
    else:
        first = f"Our records show that your {thing}{ref}{issuer} ends on {day(r.ends_on)}."
    out = [first]
    if r.permits:
        which = ", ".join(r.permits)
        plural = len(r.permits) > 1
        out.append(
            f"Permit{'s' if plural else ''} {which} rel{'y' if plural else 'ies'} on it. "
            f"The ordinance requires the {'bond' if r.what == 'Bond' else 'insurance'} to stay "
            "in force while the permitted work goes on; work without it may be stopped."
        )
    out.append(
        f"Please file a renewed {thing}, or a new one, with this office by "
        f"{day(x.reply_by)}. A certificate should name the City as certificate holder and "
        "show each coverage limit."
    )
    out.append(
        "If the work is finished or the permit is no longer needed, please let us know so that "
        "we can close our file."
    )
    return out


def render_reminder_letters(letters: Sequence[ReminderLetter], out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    body = ParagraphStyle("letter", st["base"], fontSize=10.5, leading=15, spaceAfter=9)
    small = ParagraphStyle("small", st["base"], fontSize=10.5, leading=14)
    re_style = ParagraphStyle("re", body, fontName=bold)
    story: list[Flowable] = []
    for n, x in enumerate(letters):
        if n:
            story.append(PageBreak())
        lh = x.letterhead
        story += header(lh.municipality, lh.lines, st)
        story.append(para(dateline(x.on), small))
        story.append(Spacer(1, 18))
        story.append(para(x.row.holder, small))
        for line in x.row.holder_address.splitlines():
            story.append(para(line, small))
        story.append(Spacer(1, 18))
        story.append(para(f"Re: {x.row.title} — {x.row.covers}", re_style))
        story.append(Spacer(1, 4))
        for text in letter_paragraphs(x):
            story.append(para(text, body))
        story.append(Spacer(1, 10))
        story.append(para("Sincerely,", small))
        story.append(Spacer(1, 34))
        story.append(para(lh.inspector_name or lh.inspector_title, small))
        story.append(para(lh.inspector_title, ParagraphStyle("t", small, textColor=MUTED)))
    if not story:
        story.append(para("No bond or certificate expires in this period.", body))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = SimpleDocTemplate(
        str(out),
        pagesize=letter,
        leftMargin=MARGIN + 0.25 * inch,
        rightMargin=MARGIN + 0.25 * inch,
        topMargin=0.7 * inch,
        bottomMargin=0.8 * inch,
        title="Reminder letters: bonds and insurance expiring",
        author=letters[0].letterhead.municipality if letters else "Permit Desk",
        creator="Permit Desk",
    )
    doc.build(story)
