"""Rooming house licence documents (Hudson 140-10): the licence certificate displayed within the
rooming house (140-10A), the renewal letters of the licences expiring soon, and the written
notices to the operator: the notice to correct or be suspended (140-10C), the notice of
suspension (140-10C, D) and the denial (140-10B).

Pure renderers over the frozen read models of desk.enforcement.licences
(db/licence_register_queries.py certificate, licence_notice, renewal_letters).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import KeepTogether, PageBreak, Spacer
from reportlab.platypus.flowables import Flowable

from desk.domain.documents import Letterhead
from desk.enforcement.licences import (
    RENEWAL_DAYS,
    LicenceCertificate,
    LicenceNoticeDoc,
    LicenceNoticeKind,
    LicenceNoticeViolation,
    RenewalLetterRow,
)
from desk.money import format_money
from reports.common import (
    MUTED,
    RED,
    build_certificate,
    build_pdf,
    certificate_heading,
    certificate_styles,
    day,
    facts_table,
    header,
    para,
    signature,
    signature_image,
    styles,
)
from reports.enforcement.notice import (
    PETITION_OFFICE,
    municipality_name,
    office_address,
    signer_title,
)
from reports.fonts import register_fonts
from reports.surety_letters import dateline

CERTIFICATE_TITLE = "Rooming House Licence"
CLERK_TITLE = "City Clerk"  # 140-10A: the City Clerk issues the licence
NOTICE_TITLES = {
    LicenceNoticeKind.WARNING: "Notice to correct violations",
    LicenceNoticeKind.SUSPENSION: "Notice of suspension",
    LicenceNoticeKind.DENIAL: "Denial of rooming house licence",
}
NOTICE_SECTIONS = {
    LicenceNoticeKind.WARNING: "140-10C",
    LicenceNoticeKind.SUSPENSION: "140-10C, 140-10D",
    LicenceNoticeKind.DENIAL: "140-10B",
}


def _one_line(address: str) -> str:
    return ", ".join(x.strip() for x in address.splitlines() if x.strip())


def _inspector(letterhead: Letterhead | Sequence[str]) -> str:
    if isinstance(letterhead, Letterhead) and letterhead.inspector_name:
        return letterhead.inspector_name
    return "Building Inspector"


# --- the licence certificate (140-10A) -----------------------------------------------------------


def certificate_paragraphs(c: LicenceCertificate, municipality: str) -> list[str]:
    """The certificate's statement, paragraph by paragraph (tests read these words)."""
    out = [
        f"{municipality} licenses {c.operator} to operate a rooming house at the dwelling named "
        f"below, for {c.persons} person{'s' if c.persons != 1 else ''}, from "
        f"{day(c.valid_from or c.issued_on)} through {day(c.expires_on)} (Hudson 140-10A).",
        "This licence is issued in the name of the operator for the specific dwelling named on "
        "it. It is not transferable: the holder shall give the Building Inspector written "
        "notice within 24 hours after any change of ownership, interest or control, with the "
        "name and address of the successor (140-10A).",
        "It shall be displayed in a conspicuous place within the rooming house at all times "
        "(140-10A).",
    ]
    return out


def render_licence_certificate(
    cert: LicenceCertificate, letterhead: Letterhead | Sequence[str], out: Path
) -> None:
    """One framed page: the licence as issued, signed by the City Clerk who issued it."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    cs = certificate_styles(st, bold)
    name_style = ParagraphStyle(
        "operator", st["base"], fontName=bold, fontSize=18, leading=23, alignment=TA_CENTER
    )
    warning = ParagraphStyle(
        "warning",
        st["base"],
        fontName=bold,
        fontSize=14,
        leading=18,
        alignment=TA_CENTER,
        textColor=RED,
    )
    body = ParagraphStyle("body", st["base"], fontSize=10.5, leading=14.5, spaceAfter=5)
    strong = ParagraphStyle("strong", body, fontName=bold)
    muni = municipality_name(letterhead)
    facts = [
        ("Operator", cert.operator),
        ("Operator's address", _one_line(cert.operator_address)),
        ("Dwelling", cert.dwelling),
        ("Parcel", cert.pin),
        ("Persons", str(cert.persons)),
        ("Sleeping rooms", str(cert.sleeping_rooms)),
        ("Issued", day(cert.issued_on)),
        ("Valid through", f"{day(cert.expires_on)} (one year following its issuance)"),
    ]
    if cert.renews:
        facts.insert(-2, ("Renews", f"licence {cert.renews}"))
    if cert.valid_from is not None and cert.valid_from != cert.issued_on:
        facts[-1:] = [  # a renewal issued early (140-10A): no gap, no overlap
            ("Valid from", f"{day(cert.valid_from)} (the day after licence {cert.renews} ends)"),
            ("Valid through", f"{day(cert.expires_on)} (one year following)"),
        ]
    if cert.fee is not None:
        paid = format_money(cert.fee) if cert.fee > 0 else "None set by the Council"
        if cert.fee_receipt:
            paid += f", receipt {cert.fee_receipt}"
        facts.append(("Licence fee", paid))
    story: list[Flowable] = certificate_heading(
        st, cs, muni, letterhead, CERTIFICATE_TITLE, cert.number
    )
    if cert.status != "in force":
        story += [Spacer(1, 6), para(cert.status.upper(), warning)]
    story += [
        Spacer(1, 14),
        para(f"{muni} licenses", cs["centred"]),
        Spacer(1, 4),
        para(cert.operator, name_style),
        para(f"to operate a rooming house at {cert.dwelling}", cs["centred"]),
        Spacer(1, 12),
        *(para(text, body) for text in certificate_paragraphs(cert, muni)),
        Spacer(1, 6),
        para("NOT TRANSFERABLE", ParagraphStyle("nt", strong, alignment=TA_CENTER)),
        Spacer(1, 10),
        facts_table(facts, st["label"], body, 1.6 * inch, padding=3),
        Spacer(1, 30),
        # the letterhead's signature image is the inspector's, never the clerk's
        *signature(st, cert.issued_by or CLERK_TITLE, CLERK_TITLE),
    ]
    build_certificate(
        out,
        story,
        font=regular,
        title=f"{CERTIFICATE_TITLE} {cert.number} — {cert.operator}",
        author=muni,
        footer=f"{muni} — rooming house licence {cert.number}, valid through "
        f"{day(cert.expires_on)}; display within the rooming house (140-10A)",
    )


# --- renewal letters ------------------------------------------------------------------------------


def renewal_paragraphs(row: RenewalLetterRow) -> list[str]:
    """The body of a renewal letter, paragraph by paragraph (tests read these words)."""
    return [
        f"Our records show that your rooming house licence {row.number} for {row.dwelling} is "
        f"valid through {day(row.expires_on)}. It expires at the end of one year following its "
        "date of issuance (Hudson 140-10A); no person shall operate a rooming house without a "
        "valid licence.",
        "To renew it, apply to the office of the Building Inspector on or after "
        f"{day(row.renewal_opens)} ({RENEWAL_DAYS} days before it expires), stating the rooms "
        "and their floor areas, the persons residing and the water closets, lavatory basins and "
        "bathtubs or showers. The Building Inspector inspects the house before the City Clerk "
        "issues the renewed licence; the Council's licence fee is paid then.",
        f"A renewal issued by {day(row.expires_on)} runs from "
        f"{day(row.expires_on + timedelta(days=1))} for one year, so your licence does not "
        "lapse; one issued later runs from its day of issue, and the rooming house may not be "
        "operated in between.",
        "A licence is not transferable. If the ownership, interest or control of the rooming "
        "house has changed, please tell us so that we can close our file: the new operator "
        "applies in their own name (140-10A).",
    ]


def render_renewal_letters(
    rows: Sequence[RenewalLetterRow],
    letterhead: Letterhead | Sequence[str],
    today: date,
    out: Path,
) -> None:
    """One page per licence expiring within the watch, to the operator at the address given."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    body = ParagraphStyle("letter", st["base"], fontSize=10.5, leading=15, spaceAfter=9)
    small = ParagraphStyle("small", st["base"], fontSize=10.5, leading=14)
    re_style = ParagraphStyle("re", body, fontName=bold)
    muni = municipality_name(letterhead)
    signer = _inspector(letterhead)
    story: list[Flowable] = []
    for n, row in enumerate(rows):
        if n:
            story.append(PageBreak())
        story += header(muni, letterhead, st)
        story.append(para(dateline(today), small))
        story.append(Spacer(1, 18))
        story.append(para(row.operator, small))
        for line in row.operator_address.splitlines():
            story.append(para(line, small))
        story.append(Spacer(1, 18))
        story.append(
            para(f"Re: Rooming house licence {row.number} — {row.dwelling}: renewal", re_style)
        )
        story.append(Spacer(1, 4))
        story += [para(text, body) for text in renewal_paragraphs(row)]
        story.append(Spacer(1, 10))
        story.append(para("Sincerely,", small))
        story.append(Spacer(1, 34))
        story.append(para(signer, small))
        story.append(
            para(signer_title(letterhead, signer), ParagraphStyle("t", small, textColor=MUTED))
        )
    if not story:
        story.append(para("No rooming house licence expires in this period.", body))
    build_pdf(
        out,
        story,
        font=regular,
        title="Renewal letters: rooming house licences expiring",
        author=muni,
        footer=f"{muni} — rooming house licence renewal, {day(today)}",
        page_label="",
    )


# --- the written notices (140-10B, C, D) ---------------------------------------------------------


def _where_petition(letterhead: Letterhead | Sequence[str]) -> str:
    return f"{PETITION_OFFICE}, {office_address(letterhead)}"


def notice_paragraphs(doc: LicenceNoticeDoc, letterhead: Letterhead | Sequence[str]) -> list[str]:
    """What the notice says, paragraph by paragraph, before its list of violations."""
    where = _where_petition(letterhead)
    if doc.kind is LicenceNoticeKind.WARNING:
        assert doc.warned_on is not None and doc.correct_by is not None
        return [
            f"Upon inspection the Building Inspector found the rooming house at {doc.dwelling} "
            "not to be in compliance with the housing code, as listed below.",
            f"Your licence {doc.number} will be suspended unless the conditions are corrected "
            f"by {day(doc.correct_by)} (Hudson 140-10C). At the end of that period the Building "
            "Inspector will re-inspect the rooming house; if the conditions have not been "
            "corrected, the licence will be suspended by written notice and you shall "
            "immediately cease operation of the rooming house.",
            "You may petition for a hearing on this notice under the procedure of 140-3 by "
            f"filing a written petition, with a brief statement of its grounds, in {where} "
            "(140-10D).",
        ]
    if doc.kind is LicenceNoticeKind.SUSPENSION:
        assert doc.suspended_on is not None and doc.petition_last_day is not None
        return [
            f"Rooming house licence {doc.number} for {doc.dwelling} is suspended as of "
            f"{day(doc.suspended_on)}. The conditions of which you were notified were not "
            "corrected within the period given, as found on re-inspection (Hudson 140-10C).",
            "You shall cease operation of the rooming house at once. No person shall occupy "
            "any rooming unit for sleeping or living purposes while the licence is suspended "
            "(140-10C).",
            "You may petition for a hearing under the procedure of 140-3 by filing a written "
            f"petition, with a brief statement of its grounds, in {where}, within 10 days "
            f"following the day of suspension: on or before {day(doc.petition_last_day)}. If no "
            "petition is filed within that time, the licence is deemed automatically revoked "
            "(140-10D).",
        ]
    assert doc.denied_on is not None and doc.petition_last_day is not None
    return [
        f"The application of {day(doc.applied_on)} for a rooming house licence for "
        f"{doc.dwelling} is denied by the Building Inspector (Hudson 140-10B).",
        f"Reason: {doc.denial_reason}",
        "You may request a hearing under the procedure of 140-3 by filing a written petition, "
        f"with a brief statement of its grounds, in {where}, within 10 days after this denial: "
        f"on or before {day(doc.petition_last_day)} (140-10B, 140-3B).",
    ]


def _violation(k: int, v: LicenceNoticeViolation, st: dict[str, ParagraphStyle]) -> Flowable:
    head = ParagraphStyle("v_head", st["base"], fontName=st["muni"].fontName, fontSize=10)
    value = ParagraphStyle("v_value", st["base"], fontSize=9.5, leading=12.5)
    rows = [("Code", f"“{v.text}”"), ("Where", v.location or "The dwelling")]
    return KeepTogether(
        [
            para(f"{k}. {v.section} — {v.title}", head),
            facts_table(rows, st["label"], value, 1.1 * inch, padding=2),
            Spacer(1, 5),
        ]
    )


def render_licence_notice(
    doc: LicenceNoticeDoc, letterhead: Letterhead | Sequence[str], out: Path
) -> None:
    """The written notice to the operator, signed by the Building Inspector."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    body = ParagraphStyle("body", st["base"], fontSize=10, leading=13.5, spaceAfter=6)
    section = ParagraphStyle(
        "section", st["base"], fontName=bold, fontSize=11, leading=14, spaceBefore=8
    )
    title = NOTICE_TITLES[doc.kind]
    title_style = st["title"]
    if doc.kind is LicenceNoticeKind.SUSPENSION:
        title_style = ParagraphStyle("title_red", st["title"], textColor=RED)
    muni = municipality_name(letterhead)
    facts = [
        ("Licence", doc.number or f"Application of {day(doc.applied_on)} (not issued)"),
        ("Date of notice", day(doc.dated)),
        ("Dwelling", doc.dwelling),
        ("Parcel", doc.pin),
    ]
    if doc.case_number:
        facts.append(("Case", doc.case_number))
    if doc.kind is LicenceNoticeKind.WARNING:
        assert doc.correct_by is not None
        facts.append(("Correct by", day(doc.correct_by)))
    if doc.petition_last_day is not None:
        facts.append(("Last day to petition", day(doc.petition_last_day)))
    story: list[Flowable] = [
        *header(muni, letterhead, st),
        para(title, title_style),
        para(f"Written notice under Hudson {NOTICE_SECTIONS[doc.kind]}", st["label"]),
        Spacer(1, 8),
        facts_table(facts, st["label"], st["base"], 1.4 * inch, padding=3),
        Spacer(1, 6),
        para("To", section),
        facts_table(
            [("Operator", f"{doc.operator}, {_one_line(doc.operator_address)}")],
            st["label"],
            body,
            1.4 * inch,
            padding=3,
        ),
        Spacer(1, 6),
        *(para(text, body) for text in notice_paragraphs(doc, letterhead)),
    ]
    if doc.violations:
        story.append(para("Violations found on inspection", section))
        story += [_violation(k, v, st) for k, v in enumerate(doc.violations, 1)]
    signer = _inspector(letterhead)
    story.append(
        KeepTogether(
            [
                Spacer(1, 26),
                *signature(
                    st,
                    signer,
                    signer_title(letterhead, signer),
                    signature_image(letterhead, signer),
                ),
            ]
        )
    )
    ref = doc.number or f"application #{doc.licence_id}"
    build_pdf(
        out,
        story,
        font=regular,
        title=f"{title} — {ref}",
        author=muni,
        footer=f"{muni} — {title.lower()}, {ref}, {day(doc.dated)}",
    )
