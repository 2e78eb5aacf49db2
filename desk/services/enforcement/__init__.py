"""Code enforcement's use cases (Hudson ch. 140, procedure of 140-3), one module per concern:

- complaints: take_complaint (clerk), complainant (inspector's confidential read)
- cases: open_case, close_case, set_housing_code
- inspections: record_inspection (violations found; re-inspection findings)
- visits: schedule_visit, reschedule_visit, cancel_visit (the inspector's day, 140-2, 140-3A(3))
- notices: issue_notice (140-3A; emergency orders 140-3H), record_service (140-3A(4)),
  record_returned_unclaimed
- petitions: record_petition (140-3B), schedule_hearing (140-3B), record_council_decision (140-3C)
- review: record_review_decision, record_appeal, schedule_appeal_hearing,
  record_final_determination (Wis. Stat. 68.09-68.12, for a code with no procedure of its own)
- orders: record_escalation (an order not complied with)
- sweep: sweep_notices (140-3D: a notice not petitioned becomes an order)
- corrections: withdraw_service, withdraw_petition, withdraw_violation (a record entered by
  mistake, never deleted)
- occupancy: attach_occupancy (140-7, 512-11: a calculation kept with a case or licence)
- licences: rooming-house licences (140-10), application to revocation
- renewals: apply_for_renewal (140-10A: within the licence's last 60 days, no gap)

Each takes (uow, clock, actor, ...), checks the permission, locks the case's row, checks the
rule after the lock, and writes in one transaction (the audit trail follows in it).
"""
