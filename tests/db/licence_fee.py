"""The Council's rooming-house licence fee (Hudson 140-10A) set for a test's municipality, as an
administrator sets it in Administration → Municipality: issuing is refused while it is not set."""

from __future__ import annotations

from desk.services import municipality
from tests.db.enforcement_setup import Office

FEE = "25.00"
RECEIPT = "CC-2026-0417"  # the City Clerk's receipt for it


def set_licence_fee(o: Office, fee: str = FEE) -> None:
    municipality.update_municipality(
        o.db.uow(), o.clock, o.admin, o.mid, {"rooming_licence_fee": fee}
    )
