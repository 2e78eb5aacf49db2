"""The case window's dialogs for review and appeal under Wis. Stat. ch. 68 (a housing code with
no procedure of its own, Ch. 512), one service call each: the request for review (68.08), the
decision on review (68.09), the appeal (68.10), its hearing (68.11) and the final determination
(68.12). OK runs the service; a refusal keeps the dialog open with the service's words and marks
the field it names (ui.permit.actions.ActionDialog). A decision recorded after its last day is
recorded, and the service's warning shown."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from db.enforcement_case_view import AppealFact, CaseFacts, NoticeFact
from desk.enforcement import deadlines
from desk.enforcement.model import Decision
from desk.services.enforcement import review
from ui import dialogs
from ui.permit.actions import ActionDialog, _text_box
from ui.permit.base import PermitContext
from ui.presenters.formatting import format_date
from ui.views.common import date_edit
from ui.views.dialog_fields import day as _day
from ui.views.dialog_fields import line as _line
from ui.views.enforcement_dialogs import DecidedDialog, PetitionDialog

__all__ = [
    "AppealDialog",
    "AppealHearingDialog",
    "FinalDeterminationDialog",
    "RequestForReviewDialog",
    "ReviewDecisionDialog",
]

_DECISIONS = (
    ("Affirmed: the notice is an order", Decision.SUSTAIN),
    ("Modified: new correction dates", Decision.MODIFY),
    ("Reversed: its violations are withdrawn", Decision.WITHDRAW),
)


class RequestForReviewDialog(PetitionDialog):
    """68.08: a written request for review of the determination (the notice of violation),
    recorded with the petitions service; a late one is recorded as late."""

    def __init__(self, context: PermitContext, f: CaseFacts, parent: QWidget | None = None) -> None:
        req = f.procedure.request
        super().__init__(
            context,
            f,
            parent,
            texts=(
                "Record a request for review",
                f"Case {f.number}. A request for review ({req.section}): made in writing to "
                f"{f.procedure.filed_with} within {req.days} days of notice of the "
                "determination (the service of the notice of violation). A late one is "
                "recorded as late.",
                "&Record request",
            ),
            prefix="review",
            by=("reviewBy", "&By:"),
        )

    def run(self) -> None:
        super().run()
        r = self.recorded
        if r is not None and not r.timely and r.last_day is not None:
            dialogs.warn(
                self,
                self.windowTitle(),
                f"Recorded as late: the last day was {format_date(r.last_day)}.",
            )


class _Decided(DecidedDialog):
    """A decision under ch. 68: affirmed, modified or reversed; a late one is warned of."""

    def _fields(self, f: CaseFacts, n: NoticeFact, name: str, label: str) -> None:
        self._decision_fields(f, n, (name, f"{name}On", f"{name}Date"), label, _DECISIONS)

    def _warn(self, warning: str) -> None:
        if warning:
            dialogs.warn(self, self.windowTitle(), warning)


class ReviewDecisionDialog(_Decided):
    """68.09: the municipal authority's decision on review, in writing with its reasons, within
    15 days of receipt of the request; no hearing is needed."""

    def __init__(
        self, context: PermitContext, f: CaseFacts, n: NoticeFact, parent: QWidget | None = None
    ) -> None:
        proc = f.procedure
        period = proc.period("review")
        received = min(x.filed_on for x in n.petitions if x.timely)
        due = deadlines.review_due(received, period.days, f.calendar)
        super().__init__(
            context,
            "Record the decision on review",
            f"Case {f.number}, review requested {format_date(received)}. {proc.decider} "
            f"affirms, modifies or reverses the determination in writing, with the reasons, by "
            f"{format_date(due)} ({period.cite()}); no hearing is needed. Affirmed or modified, "
            f"the notice is an order from the decision. The day it is mailed or given starts "
            f"the time to appeal ({proc.period('appeal').cite()}).",
            "&Record decision",
            parent,
        )
        self.notice = n
        self.due = due
        self._fields(f, n, "reviewDecision", "&Decision:")
        self.reasons = _text_box(self, "reviewReasons", "the reasons for the decision", 3)
        self.add_field("R&easons:", self.reasons, "reasons")
        self._decided()
        self.result_: review.ReviewDecided | None = None

    def run(self) -> None:
        decision, dates = self._chosen()
        self.result_ = review.record_review_decision(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.notice.id,
            decision,
            _day(self.decided_on),
            self.reasons.toPlainText(),
            dates,
        )
        self._warn(self.result_.warning)


class AppealDialog(ActionDialog):
    """68.10: the written notice of appeal from the decision on review, filed with or mailed to
    the office within 30 days of notice of the decision; a late one gets no hearing."""

    def __init__(
        self, context: PermitContext, f: CaseFacts, n: NoticeFact, parent: QWidget | None = None
    ) -> None:
        proc = f.procedure
        period = proc.period("appeal")
        assert n.decided_on is not None
        last = deadlines.appeal_last_day(n.decided_on, period.days, f.calendar)
        super().__init__(
            context,
            "Record an appeal",
            f"Case {f.number}, decided on review {format_date(n.decided_on)}. An appeal "
            f"({period.section}): a written notice of appeal filed with or mailed to the office "
            f"by {format_date(last)} ({period.days} days). A late one is recorded as late and "
            "gets no hearing.",
            "&Record appeal",
            parent,
        )
        self.notice = n
        self.filed_on = date_edit(self, "appealFiled", context.clock.today())
        self.add_field("&Filed on:", self.filed_on, "filed on")
        names = [a.name for a in n.addressees]
        self.appellant = _line(self, "appellant", "who signed it", names[0] if names else "")
        self.add_field("&By:", self.appellant, "appellant")
        self.grounds = _text_box(self, "appealGrounds", "the grounds, as written", 3)
        self.add_field("&Grounds:", self.grounds, "grounds")
        self.recorded: review.AppealRecorded | None = None

    def run(self) -> None:
        self.recorded = review.record_appeal(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.notice.id,
            _day(self.filed_on),
            self.appellant.text(),
            self.grounds.toPlainText(),
        )
        r = self.recorded
        if not r.timely:
            dialogs.warn(
                self,
                self.windowTitle(),
                f"Recorded as late: the last day was {format_date(r.last_day)}. A late appeal "
                "gets no hearing.",
            )


class AppealHearingDialog(ActionDialog):
    """68.11(1): the hearing within 15 days of receipt of the appeal, the appellant served with
    notice of it at least 10 days before. The service refuses a date that breaks either."""

    def __init__(
        self, context: PermitContext, f: CaseFacts, a: AppealFact, parent: QWidget | None = None
    ) -> None:
        proc = f.procedure
        hearing, ahead = proc.period("hearing"), proc.period("hearing_notice")
        self.last = deadlines.hearing_last_day(a.filed_on, hearing.days, f.calendar)
        super().__init__(
            context,
            "Schedule the hearing on the appeal",
            f"Case {f.number}, appeal by {a.appellant} received {format_date(a.filed_on)}. "
            f"Hold the hearing by {format_date(self.last)}: within {hearing.days} days of "
            f"receipt ({hearing.section}). Serve the appellant with notice of it at least "
            f"{ahead.days} days before ({ahead.section}).",
            "&Schedule",
            parent,
        )
        self.appeal = a
        today = context.clock.today()
        self.hearing_on = date_edit(self, "appealHearingOn", a.hearing_on or self.last)
        self.add_field("&Hearing on:", self.hearing_on, "hearing on")
        self.place = _line(self, "appealHearingPlace", "", "City Hall")
        self.add_field("&Place:", self.place, "place")
        self.sent_on = date_edit(self, "appealNoticeSent", a.hearing_notice_on or today)
        self.add_field("&Notice sent on:", self.sent_on, "notice of the hearing served on")

    def run(self) -> None:
        review.schedule_appeal_hearing(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.appeal.id,
            _day(self.hearing_on),
            self.place.text(),
            _day(self.sent_on),
        )


class FinalDeterminationDialog(_Decided):
    """68.12: the final determination on the appeal, within 20 days of the hearing; affirmed,
    modified or reversed (its orders set aside)."""

    def __init__(
        self,
        context: PermitContext,
        f: CaseFacts,
        n: NoticeFact,
        a: AppealFact,
        parent: QWidget | None = None,
    ) -> None:
        proc = f.procedure
        final, judicial = proc.period("final"), proc.period("judicial")
        assert a.hearing_on is not None
        due = deadlines.final_due(a.hearing_on, final.days, f.calendar)
        super().__init__(
            context,
            "Record the final determination",
            f"Case {f.number}, appeal by {a.appellant} heard {format_date(a.hearing_on)}. The "
            f"final determination, in writing with the findings, by {format_date(due)} "
            f"({final.cite()}). It may be reviewed only in court, by certiorari within "
            f"{judicial.days} days of its receipt ({judicial.section}).",
            "&Record determination",
            parent,
        )
        self.appeal = a
        self.due = due
        self._fields(f, n, "finalDecision", "&Determination:")
        self.findings = _text_box(self, "finalFindings", "the findings and reasons", 3)
        self.add_field("&Findings:", self.findings, "findings")
        self._decided()
        self.result_: review.FinalDetermined | None = None

    def run(self) -> None:
        decision, dates = self._chosen()
        self.result_ = review.record_final_determination(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.appeal.id,
            decision,
            _day(self.decided_on),
            self.findings.toPlainText(),
            dates,
        )
        self._warn(self.result_.warning)
