"""SQLAlchemy unit of work: one Session per user action; rolls back unless committed."""

from __future__ import annotations

from datetime import datetime
from types import TracebackType
from typing import Generic, TypeVar

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, sessionmaker

from db import tracking
from db.numbering import next_number
from desk.domain.model import Credential, Municipality, Parcel, Party, Permit, User

T = TypeVar("T")


class SqlRepository(Generic[T]):
    def __init__(self, session: Session, cls: type[T]) -> None:
        self.session = session
        self.cls = cls

    def get(self, id: int) -> T | None:
        return self.session.get(self.cls, id)

    def add(self, obj: T) -> None:
        self.session.add(obj)


class MunicipalityRepo(SqlRepository[Municipality]):
    def by_key(self, key: str) -> Municipality | None:
        return self.session.scalars(select(Municipality).filter_by(key=key)).first()

    def all(self) -> list[Municipality]:
        return list(self.session.scalars(select(Municipality).order_by(Municipality.id)))  # type: ignore[arg-type]


class UserRepo(SqlRepository[User]):
    def by_username(self, username: str) -> User | None:
        return self.session.scalars(select(User).filter_by(username=username)).first()

    def count(self) -> int:
        return int(self.session.scalar(select(func.count()).select_from(User)) or 0)


class PermitRepo(SqlRepository[Permit]):
    def by_number(self, municipality_id: int, number: str) -> Permit | None:
        return self.session.scalars(
            select(Permit).filter_by(municipality_id=municipality_id, number=number)
        ).first()


class SessionNumbers:
    def __init__(self, session: Session) -> None:
        self.session = session

    def next(self, municipality_id: int, series: str, year: int) -> int:
        return next_number(self.session.connection(), municipality_id, series, year)


class SqlUnitOfWork:
    """Implements desk.services.uow.UnitOfWork."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._factory = sessionmaker(bind=engine, expire_on_commit=False)
        tracking.install(self._factory)
        self.session: Session | None = None

    def __enter__(self) -> SqlUnitOfWork:
        s = self._factory()
        self.session = s
        self.municipalities = MunicipalityRepo(s, Municipality)
        self.users = UserRepo(s, User)
        self.parcels = SqlRepository(s, Parcel)
        self.parties = SqlRepository(s, Party)
        self.credentials = SqlRepository(s, Credential)
        self.permits = PermitRepo(s, Permit)
        self.numbers = SessionNumbers(s)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self.session is not None
        self.session.rollback()
        self.session.close()
        self.session = None

    def act_as(self, user_id: int | None, at: datetime) -> None:
        assert self.session is not None
        self.session.info[tracking.ACTOR_KEY] = user_id
        self.session.info[tracking.AT_KEY] = at

    def flush(self) -> None:
        assert self.session is not None
        self.session.flush()

    def commit(self) -> None:
        assert self.session is not None
        self.session.commit()

    def rollback(self) -> None:
        assert self.session is not None
        self.session.rollback()
