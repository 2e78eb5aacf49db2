"""Code enforcement under a housing code (Hudson ch. 140, procedure of 140-3): complaints, cases,
inspections and violations, notices and their service, petitions and the Common Council's
hearing, orders, escalation and closure. Plain Python: no Qt, no SQLAlchemy."""
