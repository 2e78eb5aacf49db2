"""Vocabularies and small pure functions for the demo database (`permitdesk demo`).

Everything here is plain data or a function of its arguments and a `random.Random` that the
caller seeds, so the same seed gives the same town. db/demo.py writes the result to the database.
The names are invented: any likeness to a real person or business is a coincidence.
"""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from functools import cache

from desk.dates import short_date
from desk.domain.enums import CredentialKind, PartyRole, PermitStatus, WorkClass
from desk.domain.issuance import in_frozen_ground_season
from desk.domain.kinds import PermitKind
from desk.domain.lifecycle import (
    COMPLETE,
    EXPIRES,
    RESUME,
    START,
    Deadline,
    Extension,
    PermitDates,
    Rule,
    check_extension,
    deadlines,
    frozen_ground_cap,
    lapsed,
)
from desk.errors import ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services.intake import KindForm
from desk.services.lifecycle import REVOCATION_REASONS

# --- streets and parcels ----------------------------------------------------------------


@dataclass(frozen=True)
class Street:
    name: str
    zip: str
    low: int  # house numbers run from low to high
    high: int
    zoning: str  # the district of most of its lots
    arterial: bool = False  # shops and offices along it
    subdivision: str = ""


_N = (5200, 7800)  # Glendale's north-south streets: 5200-7800 North
_W = (100, 3000)  # east-west streets: 100-3000 West (or East)

GLENDALE_STREETS: tuple[Street, ...] = (
    Street("N Port Washington Rd", "53217", *_N, "B-2", True, "Port Washington Heights"),
    Street("W Silver Spring Dr", "53209", *_W, "B-1", True, "Silver Spring Park"),
    Street("N Green Bay Ave", "53209", *_N, "M-1", True, "Green Bay Terrace"),
    Street("W Good Hope Rd", "53209", *_W, "B-1", True, "Good Hope Acres"),
    Street("W Bender Rd", "53217", *_W, "B-1", True, "Bender Woods"),
    Street("W Hampton Ave", "53209", *_W, "B-2", True, "Hampton Heights"),
    Street("W Florist Ave", "53209", *_W, "M-1", True, "Florist Gardens"),
    Street("N Range Line Rd", "53209", *_N, "B-1", True, "Range Line Estates"),
    Street("N Santa Monica Blvd", "53217", *_N, "R-1", False, "Fox Point Glen"),
    Street("N Lake Dr", "53217", *_N, "R-1", False, "North Shore Acres"),
    Street("N Milwaukee River Pkwy", "53209", *_N, "R-2", False, "Parkway Manor"),
    Street("W Daphne Rd", "53209", *_W, "R-2", False, "Glen Hills Subdivision"),
    Street("N Bethanne Dr", "53209", *_N, "R-2", False, "Glen Hills Subdivision"),
    Street("W Custer Ave", "53209", *_W, "R-3", False, "Custer Park Addition"),
    Street("N Berkeley Blvd", "53217", *_N, "R-1", False, "Berkeley Highlands"),
    Street("N Lydell Ave", "53217", *_N, "R-2", False, "Lydell Park"),
    Street("N Kent Ave", "53217", *_N, "R-2", False, "Kent Woods"),
    Street("N Sidney Pl", "53209", *_N, "R-2", False, "Sidney Place Addition"),
    Street("N Elm Tree Rd", "53217", *_N, "R-1", False, "Elm Tree Estates"),
    Street("N Rexleigh Dr", "53217", *_N, "R-1", False, "Rexleigh Park"),
    Street("N Iroquois Ave", "53217", *_N, "R-2", False, "Indian Hills"),
    Street("N Seneca Rd", "53217", *_N, "R-2", False, "Indian Hills"),
    Street("N Navajo Rd", "53217", *_N, "R-1", False, "Indian Hills"),
    Street("N Mohawk Ave", "53217", *_N, "R-2", False, "Indian Hills"),
    Street("N Bayside Dr", "53217", *_N, "R-1", False, "Bayside Highlands"),
    Street("N Bartlett Ave", "53217", *_N, "R-3", False, "Bartlett Park"),
    Street("N Longacre Rd", "53217", *_N, "R-1", False, "Longacre Estates"),
    Street("N Beach Dr", "53217", *_N, "R-1", False, "River Oaks"),
    Street("N Riverview Ln", "53209", *_N, "R-2", False, "River Oaks"),
    Street("N Meadow Ln", "53209", *_N, "R-2", False, "Meadowbrook"),
    Street("N Lombardy Rd", "53217", *_N, "R-2", False, "Lombardy Heights"),
    Street("N Ardmore Ave", "53217", *_N, "R-3", False, "Ardmore Addition"),
    Street("N Larkin St", "53217", *_N, "R-3", False, "Larkin Park"),
    Street("N 19th Pl", "53209", *_N, "R-3", False, "Glendale Park"),
    Street("N 20th St", "53209", *_N, "R-3", False, "Glendale Park"),
    Street("N 24th Pl", "53209", *_N, "R-3", False, "Glendale Park"),
    Street("N Teutonia Ave", "53209", *_N, "B-1", True, "Teutonia Heights"),
    Street("W Acacia Rd", "53209", *_W, "R-2", False, "Acacia Gardens"),
    Street("W Calumet Rd", "53209", *_W, "R-3", False, "Calumet Park"),
    Street("W Glendale Ave", "53209", *_W, "R-3", False, "Glendale Park"),
    Street("W Fairy Chasm Rd", "53217", *_W, "R-1", False, "Fairy Chasm Estates"),
    Street("W Kenboern Dr", "53209", *_W, "R-2", False, "Kenboern Acres"),
    Street("W Birch Ave", "53209", *_W, "R-3", False, "Birch Park"),
    Street("W Lawn Ave", "53209", *_W, "R-3", False, "Lawn Park Addition"),
    Street("W Stark St", "53209", *_W, "R-3", False, "Stark Addition"),
    Street("W Marne Ave", "53209", *_W, "R-3", False, "Marne Park"),
    Street("W Bradley Rd", "53209", *_W, "R-2", False, "Bradley Woods"),
    Street("W Sunny Ln", "53209", *_W, "R-2", False, "Sunny Acres"),
    Street("W Leon Terrace", "53209", *_W, "R-3", False, "Leon Terrace Addition"),
    Street("E Carmen Ave", "53217", *_W, "R-2", False, "Carmen Park"),
    Street("E Bay Point Rd", "53217", *_W, "R-1", False, "Bay Point"),
    Street("E Lexington Blvd", "53217", *_W, "R-1", False, "Lexington Heights"),
    Street("E Lilac Ln", "53217", *_W, "R-2", False, "Lilac Hills"),
    Street("E Ravine Ln", "53217", *_W, "R-1", False, "Ravine Woods"),
    Street("E Fairmount Ave", "53217", *_W, "R-2", False, "Fairmount Park"),
    Street("E Allerton Ave", "53217", *_W, "R-2", False, "Allerton Heights"),
    Street("E Kensington Blvd", "53217", *_W, "R-1", False, "Kensington Park"),
    Street("E Joyce Ave", "53217", *_W, "R-3", False, "Joyce Park"),
)

NEW_LISBON_STREETS: tuple[Street, ...] = (
    Street("E Bridge St", "53950", 100, 900, "B-1", True, "Original Plat of New Lisbon"),
    Street("N Adams St", "53950", 100, 900, "R-2", False, "Original Plat of New Lisbon"),
    Street("S Welch Prairie Rd", "53950", 100, 1500, "R-1", False, "Welch Prairie Addition"),
    Street("W Park St", "53950", 100, 900, "R-2", False, "Park Addition"),
    Street("N Forest St", "53950", 100, 900, "R-2", False, "Forest Addition"),
    Street("E Oak St", "53950", 100, 900, "R-3", False, "Oak Addition"),
    Street("S Division St", "53950", 100, 900, "R-2", False, "Division Addition"),
    Street("W Pleasant St", "53950", 100, 900, "R-2", False, "Pleasant View"),
    Street("E Commercial Ave", "53950", 100, 900, "M-1", True, "Industrial Park Plat"),
)

# Hudson, WI: the old town on the St. Croix and the neighbourhoods up the hill.
HUDSON_STREETS: tuple[Street, ...] = (
    Street("2nd St", "54016", 100, 1100, "B-2", True, "Original Plat of Hudson"),
    Street("3rd St", "54016", 100, 1100, "R-3", False, "Original Plat of Hudson"),
    Street("4th St", "54016", 100, 1100, "R-2", False, "Original Plat of Hudson"),
    Street("Locust St", "54016", 100, 1000, "R-2", False, "Original Plat of Hudson"),
    Street("Vine St", "54016", 100, 1000, "R-2", False, "Original Plat of Hudson"),
    Street("Walnut St", "54016", 100, 1000, "R-3", False, "Original Plat of Hudson"),
    Street("Myrtle St", "54016", 100, 900, "R-2", False, "Hersey's Addition"),
    Street("Orange St", "54016", 100, 900, "R-2", False, "Hersey's Addition"),
    Street("Laurel Ave", "54016", 100, 1400, "R-1", False, "Laurel Heights"),
    Street("Coulee Rd", "54016", 100, 2400, "B-1", True, "Coulee Addition"),
    Street("Hanley Rd", "54016", 100, 1600, "R-1", False, "Hanley Addition"),
    Street("Wisconsin St", "54016", 100, 900, "R-3", False, "Original Plat of Hudson"),
)

STREETS_BY_MUNICIPALITY: dict[str, tuple[Street, ...]] = {
    "glendale": GLENDALE_STREETS,
    "new_lisbon": NEW_LISBON_STREETS,
    "hudson": HUDSON_STREETS,
}

RESIDENTIAL_DISTRICTS = ("R-1", "R-2", "R-3")
BUSINESS_DISTRICTS = ("B-1", "B-2", "M-1")

# Lot areas in square feet by zoning district (low, high).
LOT_AREA: dict[str, tuple[int, int]] = {
    "R-1": (10_000, 24_000),
    "R-2": (7_200, 12_000),
    "R-3": (5_000, 8_400),
    "B-1": (12_000, 60_000),
    "B-2": (20_000, 140_000),
    "M-1": (40_000, 320_000),
}


def streets_for(municipality_key: str) -> tuple[Street, ...]:
    return STREETS_BY_MUNICIPALITY.get(municipality_key, GLENDALE_STREETS)


def pin_for(street_index: int, ordinal: int) -> str:
    """A tax key like '047-1012-007': book (by area), block, lot; unique for each ordinal."""
    book = 47 + street_index % 6
    return f"{book:03d}-{1000 + ordinal // 25:04d}-{ordinal % 25 + 1:03d}"


def legal_description(rng: random.Random, street: Street, house_number: int, district: str) -> str:
    if district in BUSINESS_DISTRICTS:
        return (
            f"Parcel {rng.randint(1, 4)} of Certified Survey Map No. {rng.randint(1200, 9400)}, "
            f"being part of the NE 1/4 of Section {rng.randint(1, 36)}, T8N, R22E"
        )
    block = house_number // 100 % 14 + 1
    return f"Lot {rng.randint(1, 28)}, Block {block}, {street.subdivision}"


# --- names ----------------------------------------------------------------------------------

MALE_FIRST = (
    "James", "John", "Robert", "Michael", "David", "William", "Richard", "Thomas", "Daniel",
    "Mark", "Steven", "Paul", "Kevin", "Brian", "Gary", "Jeffrey", "Scott", "Eric", "Ryan",
    "Jason", "Matthew", "Andrew", "Joseph", "Gregory", "Timothy", "Peter", "Dale", "Dennis",
    "Gerald", "Kurt", "Karl", "Leonard", "Stanley", "Walter", "Eugene", "Nathan", "Tyler",
    "Brandon", "Justin", "Aaron", "Adam", "Benjamin", "Christopher", "Jacob", "Luke", "Sam",
)  # fmt: skip
FEMALE_FIRST = (
    "Mary", "Patricia", "Linda", "Barbara", "Susan", "Karen", "Nancy", "Lisa", "Betty",
    "Sandra", "Donna", "Carol", "Ruth", "Sharon", "Michelle", "Laura", "Sarah", "Kimberly",
    "Jennifer", "Amy", "Angela", "Heidi", "Kristin", "Gretchen", "Ingrid", "Joan", "Judith",
    "Janet", "Debra", "Diane", "Julie", "Katherine", "Anna", "Emily", "Megan", "Rachel",
    "Nicole", "Stephanie", "Rebecca", "Jessica", "Elizabeth", "Margaret", "Theresa", "Paula",
)  # fmt: skip

# Surnames by origin, with the share of owners they make up in the demo town.
SURNAMES: tuple[tuple[float, tuple[str, ...]], ...] = (
    (
        0.27,
        (
            "Schmidt", "Schneider", "Mueller", "Meyer", "Wagner", "Becker", "Schultz",
            "Hoffmann", "Koch", "Weber", "Fischer", "Krause", "Zimmerman", "Schroeder", "Klein",
            "Wolf", "Braun", "Hartmann", "Lange", "Kuehn", "Vogel", "Boettcher", "Jaeger",
            "Neumann", "Schwartz", "Kraemer", "Hahn", "Brandt", "Schaefer", "Richter", "Gruber",
            "Pfeiffer", "Lehmann", "Heinz", "Ziegler", "Baumann", "Roemer", "Kuehl", "Dietrich",
        ),
    ),
    (
        0.18,
        (
            "Kowalski", "Nowak", "Wisniewski", "Wojcik", "Kowalczyk", "Kaminski", "Lewandowski",
            "Zielinski", "Szymanski", "Wozniak", "Dabrowski", "Kozlowski", "Jankowski", "Mazur",
            "Krawczyk", "Piotrowski", "Grabowski", "Pawlak", "Michalski", "Zajac", "Krol",
            "Wieczorek", "Kubiak", "Sobczak", "Gorski", "Majewski", "Olszewski", "Stankiewicz",
            "Wroblewski", "Jablonski", "Malinowski", "Adamczyk", "Kaczmarek", "Czarnecki",
        ),
    ),
    (
        0.12,
        (
            "Johnson", "Anderson", "Olson", "Larson", "Peterson", "Nelson", "Hanson", "Carlson",
            "Swanson", "Halvorson", "Lindquist", "Erickson", "Gustafson", "Thorson", "Berg",
            "Lund", "Dahl", "Hagen", "Sorensen", "Christensen", "Iverson", "Knutson", "Amundson",
        ),
    ),
    (
        0.19,
        (
            "Miller", "Smith", "Brown", "Jones", "Williams", "Davis", "Wilson", "Moore", "Taylor",
            "Thomas", "Jackson", "White", "Harris", "Martin", "Thompson", "O'Brien", "Murphy",
            "Kelly", "Sullivan", "Ryan", "Walsh", "McCarthy", "Robinson", "Washington", "Clark",
            "Lewis", "Walker", "Young", "Allen", "King", "Wright", "Hill", "Green", "Baker",
        ),
    ),
    (
        0.05,
        (
            "Romano", "Balistreri", "Russo", "Esposito", "Bianchi", "Lombardi", "Ferraro",
            "Mancuso", "Gentile", "Costello",
        ),
    ),
    (0.06, ("Vang", "Xiong", "Yang", "Lee", "Her", "Thao", "Moua", "Lor", "Vue", "Lo", "Khang")),
    (
        0.09,
        (
            "Garcia", "Hernandez", "Lopez", "Martinez", "Rodriguez", "Gonzalez", "Ramirez",
            "Torres", "Cruz", "Flores", "Morales", "Reyes", "Gutierrez", "Ortiz", "Mendoza",
        ),
    ),
    (0.02, ("Nguyen", "Tran", "Pham", "Le", "Huynh")),
    (0.02, ("Patel", "Shah", "Khan", "Ali", "Singh")),
)  # fmt: skip
HMONG_FIRST = ("Tou", "Chue", "Kou", "Yeng", "Pao", "Xee", "Pa", "Mai", "Nou", "Kia", "Shoua")
HISPANIC_FIRST = ("Jose", "Luis", "Carlos", "Miguel", "Juan", "Maria", "Ana", "Rosa", "Lupe")
_HMONG, _HISPANIC = SURNAMES[5][1], SURNAMES[6][1]
_SURNAME_GROUPS = tuple(g for _, g in SURNAMES)
_SURNAME_WEIGHTS = tuple(w for w, _ in SURNAMES)


@dataclass(frozen=True)
class PersonName:
    first: str
    last: str
    display: str  # 'John and Mary Schmidt' for joint owners


def person_name(rng: random.Random, *, joint_share: float = 0.3) -> PersonName:
    last = rng.choice(rng.choices(_SURNAME_GROUPS, _SURNAME_WEIGHTS)[0])
    pool_m: tuple[str, ...]
    pool_f: tuple[str, ...]
    if last in _HMONG:
        pool_m = pool_f = HMONG_FIRST
    elif last in _HISPANIC:
        pool_m = pool_f = HISPANIC_FIRST
    else:
        pool_m, pool_f = MALE_FIRST, FEMALE_FIRST
    first_pool = pool_m if rng.random() < 0.5 else pool_f
    first = rng.choice(first_pool)
    if rng.random() < joint_share:
        other = rng.choice(pool_f if first_pool is pool_m else pool_m)
        if other != first:
            return PersonName(first, last, f"{first} and {other} {last}")
    return PersonName(first, last, f"{first} {last}")


def surname(rng: random.Random) -> str:
    return rng.choice(rng.choices(_SURNAME_GROUPS, _SURNAME_WEIGHTS)[0])


# --- owners that are organizations ------------------------------------------------------------

INSTITUTIONS: tuple[str, ...] = (
    "Glendale-River Hills School District",
    "Nicolet Union High School District",
    "St. Eugene Catholic Parish",
    "Bethel Evangelical Lutheran Church",
    "Glendale Community Church",
    "North Shore Presbyterian Church",
    "Congregation Beth Israel Ner Tamid",
    "Good Shepherd Lutheran Church",
    "City of Glendale",
    "Milwaukee Metropolitan Sewerage District",
)
PLACE_WORDS: tuple[str, ...] = (
    "Badger State", "North Shore", "Lakeshore", "Cream City", "Kettle Moraine", "Menomonee",
    "Brew City", "Great Lakes", "Milwaukee River", "Ozaukee", "Washington County", "Lake Country",
    "Northpoint", "Bayshore", "Riverside", "Heritage", "Pioneer", "Arrowhead", "Fox River",
    "Tri-County", "Cedar Creek", "Granville", "Good Hope", "Silver Spring", "Lake Michigan",
    "Honey Creek", "Root River", "Pike River", "Parkway", "Oak Leaf", "Midwest", "Premier",
)  # fmt: skip
OWNER_ORG_PATTERNS: tuple[str, ...] = (
    "{surname} Properties LLC",
    "{place} Rentals LLC",
    "{place} Holdings LLC",
    "{surname} Family Trust",
    "{street} Partners LLC",
    "{place} Investments LLC",
    "{surname} Real Estate LLC",
)

# --- contractors and designers ---------------------------------------------------------------


@dataclass(frozen=True)
class Trade:
    key: str
    share: float  # of the contractors
    words: tuple[str, ...]
    credentials: tuple[CredentialKind, ...]
    role: PartyRole


TRADES: tuple[Trade, ...] = (
    Trade(
        "builder",
        0.30,
        ("Builders", "Construction", "Homes", "Remodeling", "Design-Build", "Contracting"),
        (CredentialKind.DWELLING_CONTRACTOR, CredentialKind.DWELLING_CONTRACTOR_QUALIFIER),
        PartyRole.CONTRACTOR,
    ),
    Trade(
        "exterior",
        0.15,
        ("Roofing", "Exteriors", "Roofing & Siding", "Fence Co.", "Gutter & Roofing"),
        (CredentialKind.DWELLING_CONTRACTOR,),
        PartyRole.CONTRACTOR,
    ),
    Trade(
        "plumber",
        0.18,
        ("Plumbing", "Plumbing & Drain", "Plumbing Services", "Sewer & Water"),
        (CredentialKind.MASTER_PLUMBER,),
        PartyRole.PLUMBER,
    ),
    Trade(
        "electrician",
        0.20,
        ("Electric", "Electrical Contractors", "Electric Service", "Power & Light"),
        (CredentialKind.ELECTRICAL_CONTRACTOR, CredentialKind.MASTER_ELECTRICIAN),
        PartyRole.ELECTRICIAN,
    ),
    Trade(
        "hvac",
        0.17,
        ("Heating & Cooling", "Mechanical", "Heating & Air", "Comfort Systems", "HVAC"),
        (CredentialKind.HVAC_CONTRACTOR,),
        PartyRole.HVAC_CONTRACTOR,
    ),
)
TRADES_BY_KEY: dict[str, Trade] = {t.key: t for t in TRADES}
DESIGNER_WORDS: tuple[tuple[str, CredentialKind], ...] = (
    ("Architects", CredentialKind.ARCHITECT),
    ("Architecture & Design", CredentialKind.ARCHITECT),
    ("Engineering", CredentialKind.ENGINEER),
    ("Structural Engineers", CredentialKind.ENGINEER),
    ("Design Group", CredentialKind.ARCHITECT),
)
COMPANY_SUFFIXES: tuple[str, ...] = ("LLC", "Inc", "LLC", "Inc", "Co.", "& Sons", "Corp.")

CREDENTIAL_PREFIX: dict[CredentialKind, str] = {
    CredentialKind.DWELLING_CONTRACTOR: "DC",
    CredentialKind.DWELLING_CONTRACTOR_QUALIFIER: "DCQ",
    CredentialKind.MASTER_PLUMBER: "MP",
    CredentialKind.ELECTRICAL_CONTRACTOR: "EC",
    CredentialKind.MASTER_ELECTRICIAN: "ME",
    CredentialKind.HVAC_CONTRACTOR: "HVAC",
    CredentialKind.LAND_SURVEYOR: "S",
    CredentialKind.ARCHITECT: "A",
    CredentialKind.ENGINEER: "E",
}


def company_name(rng: random.Random, words: tuple[str, ...], taken: set[str]) -> str:
    """A company name not in `taken` (which it extends): 'Kowalski Plumbing Inc'."""
    for attempt in range(1000):
        stem = rng.choice(PLACE_WORDS) if rng.random() < 0.45 else surname(rng)
        name = f"{stem} {rng.choice(words)} {rng.choice(COMPANY_SUFFIXES)}"
        if attempt > 50:
            name = f"{stem} {rng.choice(words)} {attempt} {rng.choice(COMPANY_SUFFIXES)}"
        if name not in taken:
            taken.add(name)
            return name
    raise RuntimeError("ran out of company names")


@dataclass(frozen=True)
class BusinessAddress:
    line1: str
    city: str
    zip: str


# Cities around Glendale where the trades keep their shops: (city, zip, Waukesha-style grid).
TRADE_CITIES: tuple[tuple[str, str, bool], ...] = (
    ("Milwaukee", "53218", False),
    ("Milwaukee", "53223", False),
    ("Milwaukee", "53212", False),
    ("Glendale", "53209", False),
    ("Brown Deer", "53223", False),
    ("Wauwatosa", "53213", False),
    ("West Allis", "53214", False),
    ("Menomonee Falls", "53051", True),
    ("Germantown", "53022", True),
    ("Mequon", "53092", True),
    ("Cedarburg", "53012", True),
    ("Brookfield", "53045", True),
    ("Sussex", "53089", True),
    ("Oak Creek", "53154", False),
    ("Grafton", "53024", True),
)
BUSINESS_STREETS = (
    "W Lincoln Ave", "W Capitol Dr", "N Teutonia Ave", "W Mill Rd", "W Brown Deer Rd",
    "N Industrial Rd", "W Burleigh St", "S 27th St", "W Greenfield Ave", "Commerce Dr",
    "Enterprise Ave", "Ridgewood Dr", "Pilgrim Rd", "Main St", "Washington Ave",
)  # fmt: skip


def business_address(rng: random.Random) -> BusinessAddress:
    city, zip_code, grid = rng.choice(TRADE_CITIES)
    street = rng.choice(BUSINESS_STREETS)
    if grid:  # Waukesha and Ozaukee County grid addresses: 'N56 W16865 Ridgewood Dr'
        line1 = f"N{rng.randint(10, 120)} W{rng.randint(5000, 24999)} {street}"
    else:
        line1 = f"{rng.randint(100, 9999)} {street}"
    return BusinessAddress(line1, city, zip_code)


def phone(rng: random.Random, area: str = "414") -> str:
    return f"({area}) {rng.randint(220, 989)}-{rng.randint(0, 9999):04d}"


def slug(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


# Where owners who do not live at the parcel get their mail.
AWAY_ADDRESSES: tuple[tuple[str, str, str], ...] = (
    ("Naples", "FL", "34102"),
    ("Scottsdale", "AZ", "85251"),
    ("Mequon", "WI", "53092"),
    ("Whitefish Bay", "WI", "53217"),
    ("Shorewood", "WI", "53211"),
    ("Minocqua", "WI", "54548"),
    ("Chicago", "IL", "60614"),
    ("Sarasota", "FL", "34236"),
)

# --- the calendar ---------------------------------------------------------------------------

# Relative number of applications by month: the building season peaks May-August.
MONTH_WEIGHT: tuple[float, ...] = (
    0.45, 0.50, 0.80, 1.10, 1.45, 1.55, 1.50, 1.45, 1.20, 1.05, 0.70, 0.45,
)  # fmt: skip


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th (1-based; -1 = last) weekday of a month."""
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = date(year, month, calendar.monthrange(year, month)[1])
    return last - timedelta(days=(last.weekday() - weekday) % 7)


@cache
def office_holidays(year: int) -> frozenset[date]:
    """Days the inspection office is closed (besides weekends)."""
    thanksgiving = _nth_weekday(year, 11, 3, 4)
    return frozenset(
        {
            date(year, 1, 1),
            _nth_weekday(year, 5, 0, -1),  # Memorial Day
            date(year, 7, 4),
            _nth_weekday(year, 9, 0, 1),  # Labor Day
            thanksgiving,
            thanksgiving + timedelta(days=1),
            date(year, 12, 24),
            date(year, 12, 25),
        }
    )


def office_days(first: date, last: date) -> list[date]:
    holidays: set[date] = set()
    for y in range(first.year, last.year + 1):
        holidays |= office_holidays(y)
    out = []
    d = first
    while d <= last:
        if d.weekday() < 5 and d not in holidays:
            out.append(d)
        d += timedelta(days=1)
    return out


def next_office_day(d: date) -> date:
    while d.weekday() >= 5 or d in office_holidays(d.year):
        d += timedelta(days=1)
    return d


def add_months(d: date, months: int) -> date:
    """Calendar months later, the day clamped to the month's end (Aug 31 + 18 months = Feb 28)."""
    m = d.month - 1 + months
    year, month = d.year + m // 12, m % 12 + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def central_utc_offset_hours(d: date) -> int:
    """UTC offset of US Central time at noon on `d` (-5 daylight, -6 standard), both US rules."""
    if d.year >= 2007:  # second Sunday of March to first Sunday of November
        start, end = _nth_weekday(d.year, 3, 6, 2), _nth_weekday(d.year, 11, 6, 1)
    else:  # first Sunday of April to last Sunday of October
        start, end = _nth_weekday(d.year, 4, 6, 1), _nth_weekday(d.year, 10, 6, -1)
    return -5 if start <= d < end else -6


# --- permit kinds and the work they describe ----------------------------------------------------

# Relative frequency of each kind. Kinds not listed get DEFAULT_KIND_WEIGHT.
KIND_WEIGHT: dict[str, float] = {
    "RES-OTHER": 22.0,
    "ELECTRICAL": 14.0,
    "PLUMBING": 12.0,
    "HVAC": 12.0,
    "RES-REMODEL": 9.0,
    "RES-ACCESSORY": 6.0,
    "COM-REMODEL": 3.5,
    "RES-ADDITION": 2.5,
    "OCCUPANCY": 1.5,
    "SEWER-WATER": 1.5,
    "RES-NEW-DWELLING": 1.2,
    "RES-POOL": 1.0,
    "EROSION": 1.0,
    "ELECTRICAL-TEMP": 0.8,
    "RAZE": 0.5,
    "CHANGE-OF-USE": 0.5,
    "GREASE-INTERCEPTOR": 0.5,
    "COM-NEW": 0.4,
    "TEMP-OCCUPANCY": 0.4,
    "ADDRESS-NUMBERS": 0.4,
    "RES-EARLY-START": 0.3,
    "COM-SPECIAL": 0.3,
    "SOLID-FILL": 0.3,
    "MOVE": 0.1,
    "AG-BUILDING": 0.05,
}
DEFAULT_KIND_WEIGHT = 1.0

_OUTDOOR = {
    "RES-OTHER",
    "RES-ACCESSORY",
    "RES-POOL",
    "EROSION",
    "SOLID-FILL",
    "RAZE",
    "MOVE",
    "STREET-OPENING",  # New Lisbon: frozen ground November 15 to May 1 (§435-8)
    "SIDEWALK",
    "CURB-GUTTER",
}
_NEW_BUILDING = {"RES-NEW-DWELLING", "RES-EARLY-START", "COM-NEW", "RES-ADDITION"}
_WINTER = (12, 1, 2)


def kind_weight(code: str, month: int) -> float:
    """How often a kind is applied for in a month: roofs and pools in summer, furnaces in fall."""
    w = KIND_WEIGHT.get(code, DEFAULT_KIND_WEIGHT)
    if code == "RES-POOL":
        return w * (2.2 if month in (4, 5, 6, 7) else 0.1)
    if code in _OUTDOOR:
        return w * (0.35 if month in _WINTER else 1.15)
    if code in _NEW_BUILDING:
        return w * (1.6 if month in (3, 4, 5) else 0.5 if month in _WINTER else 1.0)
    if code == "HVAC":
        return w * (1.6 if month in (10, 11, 12, 1) else 1.3 if month in (6, 7) else 0.9)
    if code in ("ELECTRICAL", "PLUMBING", "RES-REMODEL"):
        return w * (1.3 if month in _WINTER else 1.0)
    return w


# Kinds that happen on business-district parcels.
COMMERCIAL_KINDS = frozenset(
    {"COM-NEW", "COM-REMODEL", "COM-SPECIAL", "CHANGE-OF-USE", "GREASE-INTERCEPTOR"}
)
# Trade permits also happen on business parcels now and then.
MIXED_KINDS = frozenset({"ELECTRICAL", "PLUMBING", "HVAC", "SEWER-WATER", "ELECTRICAL-TEMP"})

# Who does the work: the trade pool the contractor comes from, and how often there is one.
KIND_TRADE: dict[str, tuple[str, float]] = {
    "RES-NEW-DWELLING": ("builder", 1.0),
    "RES-ADDITION": ("builder", 0.9),
    "RES-REMODEL": ("builder", 0.75),
    "RES-ACCESSORY": ("builder", 0.6),
    "RES-POOL": ("builder", 0.8),
    "RES-OTHER": ("exterior", 0.9),
    "RES-EARLY-START": ("builder", 1.0),
    "COM-NEW": ("builder", 1.0),
    "COM-REMODEL": ("builder", 0.95),
    "COM-SPECIAL": ("builder", 0.8),
    "AG-BUILDING": ("builder", 0.7),
    "RAZE": ("builder", 0.9),
    "MOVE": ("builder", 0.7),
    "EROSION": ("builder", 0.6),
    "PLUMBING": ("plumber", 1.0),
    "SEWER-WATER": ("plumber", 1.0),
    "GREASE-INTERCEPTOR": ("plumber", 0.8),
    "ELECTRICAL": ("electrician", 1.0),
    "ELECTRICAL-TEMP": ("electrician", 1.0),
    "HVAC": ("hvac", 1.0),
    "STREET-OPENING": ("plumber", 0.7),  # laterals and water services, mostly
    "SIDEWALK": ("builder", 0.5),
    "CURB-GUTTER": ("builder", 0.6),
    "STREET-PRIVILEGE": ("builder", 0.8),  # the dumpster or scaffold of a building job
}
# How often a designer (architect or engineer) is named.
KIND_DESIGNER: dict[str, float] = {
    "COM-NEW": 1.0,
    "COM-SPECIAL": 0.6,
    "COM-REMODEL": 0.5,
    "RES-NEW-DWELLING": 0.35,
    "RES-ADDITION": 0.15,
}

# Keys of Permit.areas: levels ("first" .. "fifth", "basement_finished"), "garage", "deck",
# "porch", and the unfinished basement, which does not count towards the floor area.
UNFINISHED = "basement_unfinished"


def floor_area(areas: dict[str, int]) -> int:
    """Floor area for fees: every level except an unfinished basement."""
    return sum(v for k, v in areas.items() if k != UNFINISHED)


@dataclass(frozen=True)
class Work:
    description: str
    valuation: Decimal
    areas: dict[str, int] = field(default_factory=dict)
    dwelling_units: int = 0
    disturbed_acres: Decimal | None = None  # erosion control (15.2.8)
    stories: int | None = None
    volume_cuft: int | None = None  # 15.1.7(d): a seal over 50,000 cubic feet
    construction_type: str = ""  # the building code's type, the annual report's "materials"

    @property
    def floor_area_sqft(self) -> int:
        return floor_area(self.areas)


# Kinds whose work is a building of its own, new or added, and the height of a story: the
# intake form records its stories and total volume (revision 0006).
STORY_HEIGHT_FT: dict[str, int] = {
    "RES-NEW-DWELLING": 10,
    "RES-ADDITION": 10,
    "RES-ACCESSORY": 10,
    "COM-NEW": 14,
    "AG-BUILDING": 16,
}
_ENCLOSED = ("garage", "basement_finished", UNFINISHED)


def _building_facts(code: str, areas: dict[str, int]) -> tuple[int | None, int | None]:
    """Stories and total volume in cubic feet of a building (not a deck or a porch)."""
    height = STORY_HEIGHT_FT.get(code)
    if height is None:
        return None, None
    levels = sum(1 for name in LEVEL_NAMES if areas.get(name))
    enclosed = sum(areas.get(k, 0) for k in (*LEVEL_NAMES, *_ENCLOSED))
    if not enclosed:
        return None, None
    return max(levels, 1), enclosed * height


def _dollars(x: float) -> Decimal:
    return Decimal(int(round(x, -1)))


def _cents(x: float) -> Decimal:
    return Decimal(round(x * 100)).scaleb(-2)


def _sqft(n: int) -> str:
    return f"{n:,} sq ft"


TENANTS = (
    "dental office", "coffee shop", "fitness studio", "hair salon", "physical therapy clinic",
    "insurance office", "pizza restaurant", "mattress store", "cell phone store", "bank branch",
    "urgent care clinic", "yoga studio", "bakery", "nail salon", "tax preparation office",
    "optometrist", "tutoring center", "pet grooming", "sandwich shop", "law office",
)  # fmt: skip
COMMERCIAL_BUILDINGS = (
    ("medical office building", 1, 3, 6_000, 24_000),
    ("retail building", 1, 1, 4_000, 16_000),
    ("restaurant with drive-through", 1, 1, 2_400, 4_800),
    ("office building", 2, 4, 10_000, 40_000),
    ("warehouse addition", 1, 1, 8_000, 30_000),
    ("multi-tenant retail center", 1, 1, 9_000, 28_000),
    ("apartment building", 3, 4, 24_000, 60_000),
    ("hotel", 4, 5, 40_000, 80_000),
)
RESTAURANTS = ("pizza restaurant", "Mexican restaurant", "supper club", "sushi bar", "diner")
LEVEL_NAMES = ("first", "second", "third", "fourth", "fifth")


def describe(code: str, rng: random.Random, price_index: float = 1.0) -> Work:
    """The work of a permit of this kind: description, valuation (scaled by `price_index` for
    older years), floor areas by level and dwelling units."""
    maker = _DESCRIBERS.get(code)
    if maker is None:
        return Work("Work as described in the application", _dollars(rng.uniform(500, 8_000)))
    w = maker(rng)
    if price_index != 1.0 and w.valuation:
        exact = w.valuation.as_tuple().exponent == 0
        scaled = float(w.valuation) * price_index
        w = replace(w, valuation=_dollars(scaled) if exact else _cents(scaled))
    if code in STORY_HEIGHT_FT:
        stories, volume = _building_facts(code, w.areas)
        w = replace(
            w,
            stories=stories,
            volume_cuft=volume,
            construction_type=_construction_type(code, stories, w.dwelling_units),
        )
    return w


def _construction_type(code: str, stories: int | None, units: int) -> str:
    """What such a building is usually built as: houses, garages and farm buildings of wood
    frame (V-B), apartments of protected wood frame (V-A), shops and offices of steel (II-B),
    and taller buildings fire-resistive (I-B)."""
    if stories is None:
        return ""
    if not code.startswith("COM"):
        return "V-B"
    if stories >= 4:
        return "I-B"
    return "V-A" if units else "II-B"


def _res_other(rng: random.Random) -> Work:
    r = rng.random()
    if r < 0.55:
        squares = rng.randint(14, 42)
        what = rng.choice(("architectural shingles", "architectural shingles", "metal roofing"))
        return Work(
            f"Tear-off and reroof, {squares} squares, {what}",
            _dollars(squares * rng.uniform(420, 680)),
        )
    if r < 0.65:
        squares = rng.randint(4, 9)
        return Work(f"Reroof detached garage, {squares} squares", _dollars(squares * 450))
    if r < 0.85:
        area = rng.randint(8, 30) * 100
        what = rng.choice(("vinyl", "fiber cement", "LP SmartSide"))
        return Work(f"Replace {what} siding, {_sqft(area)}", _dollars(area * rng.uniform(7, 14)))
    feet = rng.randint(6, 36) * 5
    what = rng.choice(("6 ft cedar privacy", "4 ft aluminum", "5 ft vinyl", "4 ft chain-link"))
    return Work(f"Install {what} fence, {feet} linear ft", _dollars(feet * rng.uniform(25, 65)))


def _electrical(rng: random.Random) -> Work:
    choices = (
        ("200A service upgrade", 2_400, 4_800),
        ("Replace panel, 100A to 200A", 2_000, 3_800),
        ("EV charger circuit (50A, 240V) in garage", 700, 1_900),
        ("Whole-house generator, 22 kW, with automatic transfer switch", 9_000, 16_000),
        ("Basement finish wiring, 8 circuits", 1_800, 4_500),
        ("Kitchen remodel wiring, 6 new circuits", 1_500, 4_200),
        ("Replace knob-and-tube wiring, second floor", 6_000, 14_000),
        ("Hot tub disconnect and feeder", 600, 1_500),
        ("Garage subpanel, 60A", 900, 2_200),
        ("Smoke and CO detectors, hard-wired interconnected", 500, 1_400),
    )
    if rng.random() < 0.12:
        kw = round(rng.uniform(4.0, 12.5), 1)
        return Work(
            f"Roof-mounted solar PV system, {kw} kW", _cents(kw * 1000 * rng.uniform(2.6, 3.4))
        )
    text, lo, hi = rng.choice(choices)
    value = rng.uniform(lo, hi)
    return Work(text, _cents(value) if rng.random() < 0.35 else _dollars(value))


def _plumbing(rng: random.Random) -> Work:
    choices = (
        ("Replace 50-gallon gas water heater", 1_400, 2_600),
        ("Replace 40-gallon water heater", 1_200, 2_200),
        ("Tankless water heater installation", 3_200, 5_500),
        ("Bathroom remodel plumbing, {n} fixtures", 2_000, 7_000),
        ("Kitchen sink, dishwasher and disposal", 700, 1_900),
        ("Replace sewer lateral to property line", 6_000, 14_000),
        ("Install backflow preventer", 500, 1_400),
        ("Water softener installation", 900, 2_400),
        ("Sump pump and drain tile, {n} linear ft", 3_000, 9_000),
        ("Replace galvanized water supply piping", 3_500, 8_000),
    )
    text, lo, hi = rng.choice(choices)
    text = text.replace(
        "{n}", str(rng.randint(3, 6) if "fixtures" in text else rng.randint(4, 16) * 10)
    )
    value = rng.uniform(lo, hi)
    return Work(text, _cents(value) if rng.random() < 0.35 else _dollars(value))


def _hvac(rng: random.Random) -> Work:
    r = rng.random()
    if r < 0.45:
        afue = rng.choice((95, 96, 97, 98))
        btu = rng.choice((60_000, 80_000, 100_000))
        if rng.random() < 0.55:
            tons = rng.choice((2, 2.5, 3, 3.5, 4))
            return Work(
                f"Replace furnace ({afue}% AFUE, {btu:,} BTU) and air conditioner ({tons} ton)",
                _dollars(rng.uniform(8_500, 15_000)),
            )
        return Work(
            f"Replace furnace ({afue}% AFUE, {btu:,} BTU)", _dollars(rng.uniform(4_200, 7_800))
        )
    choices = (
        ("New central air conditioning, {t} ton", 4_500, 8_000),
        ("Ductless mini-split heat pump, {z} zones", 4_000, 14_000),
        ("Replace hot-water boiler", 7_500, 16_000),
        ("Bathroom exhaust fan vented to exterior", 350, 900),
        ("Gas line to range and dryer", 400, 1_200),
        ("Cold-climate heat pump with gas furnace backup", 12_000, 22_000),
    )
    text, lo, hi = rng.choice(choices)
    text = text.replace("{t}", str(rng.choice((2, 2.5, 3, 3.5)))).replace(
        "{z}", str(rng.randint(1, 4))
    )
    value = rng.uniform(lo, hi)
    return Work(text, _cents(value) if rng.random() < 0.3 else _dollars(value))


def _res_remodel(rng: random.Random) -> Work:
    r = rng.random()
    if r < 0.3:
        area = rng.randint(40, 110) * 10
        return Work(
            f"Finish basement, {_sqft(area)} (recreation room, bath, egress window)",
            _dollars(area * rng.uniform(35, 70)),
            {"basement_finished": area},
        )
    if r < 0.55:
        area = rng.randint(12, 30) * 10
        return Work(
            f"Kitchen remodel, {_sqft(area)}; relocate sink, new cabinets",
            _dollars(rng.uniform(25_000, 85_000)),
            {"first": area},
        )
    if r < 0.75:
        return Work(
            "Bathroom remodel: new tub/shower, vanity, tile",
            _dollars(rng.uniform(12_000, 38_000)),
            {"second" if rng.random() < 0.5 else "first": rng.randint(5, 12) * 10},
        )
    if r < 0.88:
        return Work(
            "Remove load-bearing wall, install LVL beam and posts",
            _dollars(rng.uniform(4_000, 14_000)),
            {"first": rng.randint(20, 60) * 10},
        )
    n = rng.randint(6, 18)
    return Work(f"Replace {n} windows, same size openings", _dollars(n * rng.uniform(700, 1_300)))


def _res_addition(rng: random.Random) -> Work:
    r = rng.random()
    if r < 0.4:
        first, second = rng.randint(25, 50) * 10, rng.randint(25, 50) * 10
        return Work(
            f"Two-story addition, {_sqft(first + second)} (family room, primary suite)",
            _dollars((first + second) * rng.uniform(190, 280)),
            {"first": first, "second": second},
        )
    if r < 0.65:
        area = rng.randint(16, 30) * 10
        return Work(
            f"Sunroom addition, {_sqft(area)}",
            _dollars(area * rng.uniform(180, 260)),
            {"first": area},
        )
    if r < 0.85:
        w, d = rng.choice(((24, 24), (22, 24), (24, 26), (12, 24)))
        return Work(
            f"Attached garage addition, {w}x{d}",
            _dollars(w * d * rng.uniform(60, 95)),
            {"garage": w * d},
        )
    area = rng.randint(20, 45) * 10
    return Work(
        f"First-floor addition, {_sqft(area)} (mudroom and kitchen expansion)",
        _dollars(area * rng.uniform(200, 300)),
        {"first": area},
    )


def _res_accessory(rng: random.Random) -> Work:
    r = rng.random()
    if r < 0.4:
        w, d = rng.choice(((12, 16), (14, 20), (16, 20), (12, 24), (20, 24)))
        what = rng.choice(("composite", "treated lumber", "cedar"))
        return Work(
            f"Deck, {w}x{d}, {what}", _dollars(w * d * rng.uniform(35, 75)), {"deck": w * d}
        )
    if r < 0.75:
        w, d = rng.choice(((20, 20), (20, 22), (22, 24), (24, 24), (24, 30)))
        return Work(
            f"Detached garage, {w}x{d} ({_sqft(w * d)})",
            _dollars(w * d * rng.uniform(50, 85)),
            {"garage": w * d},
        )
    if r < 0.9:
        w, d = rng.choice(((8, 10), (10, 12), (10, 14), (12, 16)))
        return Work(
            f"Storage shed, {w}x{d}", _dollars(w * d * rng.uniform(18, 40)), {"first": w * d}
        )
    w, d = rng.choice(((10, 12), (12, 14), (14, 16)))
    return Work(
        f"Screened porch, {w}x{d}", _dollars(w * d * rng.uniform(90, 160)), {"porch": w * d}
    )


def _res_pool(rng: random.Random) -> Work:
    r = rng.random()
    if r < 0.45:
        w, d = rng.choice(((16, 32), (18, 36), (20, 40)))
        return Work(
            f"In-ground pool, {w}x{d}, with 4 ft barrier fence",
            _dollars(rng.uniform(45_000, 85_000)),
        )
    if r < 0.75:
        size = rng.choice((18, 21, 24, 27))
        return Work(f"Above-ground pool, {size} ft round", _dollars(rng.uniform(3_000, 9_000)))
    return Work("Hot tub on existing deck", _dollars(rng.uniform(6_000, 14_000)))


def _new_dwelling(rng: random.Random) -> Work:
    if rng.random() < 0.12:  # two-family
        unit = rng.randint(110, 160) * 10
        garage = rng.choice((440, 480, 528))
        areas = {"first": unit, "second": unit, "garage": 2 * garage, UNFINISHED: unit}
        return Work(
            f"New two-family dwelling (side-by-side duplex), 2 × {_sqft(unit)}, "
            "2-car attached garage each unit",
            _dollars(2 * unit * rng.uniform(170, 240) + 2 * garage * 60),
            areas,
            2,
        )
    stories = 2 if rng.random() < 0.65 else 1
    first = rng.randint(110, 200) * 10 if stories == 2 else rng.randint(150, 280) * 10
    second = int(first * rng.uniform(0.7, 0.95)) // 10 * 10 if stories == 2 else 0
    cars = rng.choice((2, 2, 3, 3, 3)) if first > 1_500 else 2
    garage = cars * 240
    finished = rng.randint(0, 10) * 100 if rng.random() < 0.35 else 0
    living = first + second + finished
    areas = {"first": first}
    if second:
        areas["second"] = second
    areas["garage"] = garage
    areas["basement_finished"] = finished
    areas[UNFINISHED] = first - finished if first > finished else 0
    story = "2-story" if stories == 2 else "ranch"
    return Work(
        f"New {story} single-family dwelling, {_sqft(living)}, {cars}-car attached garage",
        _dollars(living * rng.uniform(190, 290) + garage * 65),
        areas,
        1,
    )


def _early_start(rng: random.Random) -> Work:
    return Work(
        "Footings and foundation for new single-family dwelling (early start)",
        _dollars(rng.uniform(28_000, 60_000)),
    )


def _com_new(rng: random.Random) -> Work:
    what, lo_st, hi_st, lo, hi = rng.choice(COMMERCIAL_BUILDINGS)
    stories = rng.randint(lo_st, hi_st)
    total = rng.randint(lo, hi) // 100 * 100
    per = total // stories // 10 * 10
    areas = {LEVEL_NAMES[i]: per for i in range(stories)}
    total = per * stories
    units = 0
    if what == "apartment building":
        units = max(8, total // 1_000)
        desc = f"New {stories}-story apartment building, {units} units, {_sqft(total)}"
    elif "addition" in what:
        desc = f"{what.capitalize()}, {_sqft(total)}"
    else:
        desc = (
            f"New {stories}-story {what}, {_sqft(total)}"
            if stories > 1
            else (f"New {what}, {_sqft(total)}")
        )
    return Work(desc, _dollars(total * rng.uniform(180, 320)), areas, units)


def _com_remodel(rng: random.Random) -> Work:
    area = rng.randint(8, 60) * 100
    tenant = rng.choice(TENANTS)
    return Work(
        f"Tenant build-out for {tenant}, {_sqft(area)}",
        _dollars(area * rng.uniform(45, 140)),
        {"first": area},
    )


def _com_special(rng: random.Random) -> Work:
    choices = (
        ("Temporary tent for summer festival, 40x80", 1_500, 4_000),
        ("Replace antennas on existing cell tower", 18_000, 45_000),
        ("Commercial pool renovation, new filtration", 60_000, 180_000),
        ("Temporary tent for sidewalk sale, 20x40", 800, 2_000),
    )
    text, lo, hi = rng.choice(choices)
    return Work(text, _dollars(rng.uniform(lo, hi)))


def _ag_building(rng: random.Random) -> Work:
    w, d = rng.choice(((30, 40), (36, 48), (40, 60)))
    return Work(
        f"Pole building, {w}x{d}, for equipment storage",
        _dollars(w * d * rng.uniform(25, 45)),
        {"first": w * d},
    )


def _raze(rng: random.Random) -> Work:
    choices = (
        ("Raze single-family dwelling and detached garage; cap laterals", 14_000, 32_000),
        ("Raze detached garage and slab", 3_500, 9_000),
        ("Raze fire-damaged dwelling", 18_000, 40_000),
        ("Interior demolition only, commercial space", 6_000, 20_000),
    )
    text, lo, hi = rng.choice(choices)
    return Work(text, _dollars(rng.uniform(lo, hi)))


def _move(rng: random.Random) -> Work:
    if rng.random() < 0.7:
        return Work(
            "Move storage shed to new location on the lot", _dollars(rng.uniform(400, 1_500))
        )
    return Work(
        "Move single-family dwelling onto new foundation", _dollars(rng.uniform(40_000, 90_000))
    )


def _occupancy(rng: random.Random) -> Work:
    return Work(
        rng.choice(
            (
                "Occupancy permit for new single-family dwelling",
                "Occupancy for change of tenant",
                "Occupancy permit for two-family dwelling",
                "Occupancy after remodel",
            )
        ),
        Decimal(0),
    )


def _temp_occupancy(rng: random.Random) -> Work:
    return Work(
        rng.choice(
            (
                "Temporary occupancy pending final grade and landscaping",
                "Temporary occupancy pending driveway paving",
                "Temporary occupancy pending exterior painting",
            )
        ),
        Decimal(0),
    )


def _change_of_use(rng: random.Random) -> Work:
    a, b = rng.sample(("retail", "office", "personal service", "restaurant", "medical clinic"), 2)
    return Work(f"Change of use from {a} to {b}", Decimal(0))


def _erosion(rng: random.Random) -> Work:
    acres = round(rng.uniform(0.15, 2.5), 2)
    return Work(
        f"Erosion control for construction, {acres} acre disturbed; silt fence and tracking pad",
        _dollars(rng.uniform(800, 6_000)),
        disturbed_acres=Decimal(f"{acres:.2f}"),
    )


def _solid_fill(rng: random.Random) -> Work:
    n = rng.randint(2, 40)
    return Work(f"Solid fill transfer, {n} truckloads", _dollars(n * 150))


def _sewer_water(rng: random.Random) -> Work:
    choices = (
        ("New sewer and water laterals for new dwelling", 9_000, 20_000),
        ("Replace water service, 1 in copper", 4_500, 9_500),
        ("Replace sanitary lateral, street to house", 7_000, 16_000),
        ("Storm lateral connection", 2_000, 6_000),
    )
    text, lo, hi = rng.choice(choices)
    return Work(text, _dollars(rng.uniform(lo, hi)))


def _electrical_temp(rng: random.Random) -> Work:
    amps = rng.choice((60, 100, 200))
    return Work(f"Temporary service for construction, {amps}A", _dollars(rng.uniform(400, 1_800)))


def _grease(rng: random.Random) -> Work:
    return Work(
        f"Annual grease interceptor permit ({rng.choice(RESTAURANTS)})",
        Decimal(0),
    )


def _address_numbers(rng: random.Random) -> Work:
    return Work("Address numbers for new dwelling", Decimal(0))


def _street_opening(rng: random.Random) -> Work:
    return Work(
        rng.choice(
            (
                "Excavate in right-of-way for water service repair",
                "Open street for sanitary lateral connection",
                "Bore under street for fiber-optic cable",
            )
        ),
        _dollars(rng.uniform(1_500, 9_000)),
    )


def _sidewalk(rng: random.Random) -> Work:
    feet = rng.randint(4, 30) * 5
    return Work(f"Replace {feet} linear ft of 5 ft public sidewalk", _dollars(feet * 45))


def _curb(rng: random.Random) -> Work:
    feet = rng.randint(2, 16) * 5
    return Work(f"Curb cut and gutter, {feet} linear ft, for new driveway", _dollars(feet * 60))


def _street_privilege(rng: random.Random) -> Work:
    return Work(
        rng.choice(("Dumpster in street for roofing job", "Sidewalk café seating, 6 tables")),
        Decimal(0),
    )


_DESCRIBERS = {
    "RES-OTHER": _res_other,
    "ELECTRICAL": _electrical,
    "PLUMBING": _plumbing,
    "HVAC": _hvac,
    "RES-REMODEL": _res_remodel,
    "RES-ADDITION": _res_addition,
    "RES-ACCESSORY": _res_accessory,
    "RES-POOL": _res_pool,
    "RES-NEW-DWELLING": _new_dwelling,
    "RES-EARLY-START": _early_start,
    "COM-NEW": _com_new,
    "COM-REMODEL": _com_remodel,
    "COM-SPECIAL": _com_special,
    "AG-BUILDING": _ag_building,
    "RAZE": _raze,
    "MOVE": _move,
    "OCCUPANCY": _occupancy,
    "TEMP-OCCUPANCY": _temp_occupancy,
    "CHANGE-OF-USE": _change_of_use,
    "EROSION": _erosion,
    "SOLID-FILL": _solid_fill,
    "SEWER-WATER": _sewer_water,
    "ELECTRICAL-TEMP": _electrical_temp,
    "GREASE-INTERCEPTOR": _grease,
    "ADDRESS-NUMBERS": _address_numbers,
    "STREET-OPENING": _street_opening,
    "SIDEWALK": _sidewalk,
    "CURB-GUTTER": _curb,
    "STREET-PRIVILEGE": _street_privilege,
}

# --- the life of a permit --------------------------------------------------------------------
#
# A permit's dates are drawn first (issue, start, the planned completion, the last work seen on
# site); then the deadline rules of desk/domain/lifecycle.py decide, as the app's lapse sweep
# does every morning (desk.services.lifecycle.sweep_lapsed), whether it lapsed on the way. So a
# fresh demo holds no live permit whose deadline has passed, and every expired one expired the
# day after a deadline, as the sweep would have marked it.

_QUICK_TRADES = ("electrical", "plumbing", "hvac")
# Days from start to completion by kind (low, high).
DURATION: dict[str, tuple[int, int]] = {
    "RES-NEW-DWELLING": (150, 400),
    "COM-NEW": (200, 480),
    "RES-ADDITION": (60, 240),
    "COM-REMODEL": (30, 150),
    "RES-REMODEL": (20, 120),
    "RES-ACCESSORY": (10, 90),
    "RES-POOL": (14, 60),
    "RES-OTHER": (2, 30),
    "RES-EARLY-START": (10, 45),
    "RAZE": (3, 30),
    "ELECTRICAL-TEMP": (14, 75),  # the temporary service is removed within its period
    "TEMP-OCCUPANCY": (14, 100),
    "SOLID-FILL": (2, 30),
    "STREET-OPENING": (1, 14),  # §435-7: valid 30 days
    "STREET-PRIVILEGE": (7, 75),  # §435-10: three months
    "SIDEWALK": (1, 10),
    "CURB-GUTTER": (2, 15),
}
DEFAULT_DURATION = (3, 45)
# Days from issue to the start of work where the default (1-45, trades 0-10) does not fit.
START_LAG: dict[str, tuple[int, int]] = {
    "STREET-OPENING": (0, 7),
    "STREET-PRIVILEGE": (0, 5),
    "ELECTRICAL-TEMP": (0, 5),
}
VALIDITY_MONTHS = 18  # 15.1.8(c): all work completed within 18 months of issue
# The period the applicant states, in days from issue (low, high): 15.1.76(a) at most 90 days,
# 15.1.13(d) at most 120, 15.1.18 at most three months within the calendar year.
REQUESTED_DAYS: dict[Rule, tuple[int, int]] = {
    Rule.TEMPORARY_ELECTRICAL: (45, 90),
    Rule.TEMPORARY_OCCUPANCY: (60, 120),
    Rule.SOLID_FILL: (30, 89),
}
DRAFT_DAYS = 10  # a draft is an application the clerk started lately and has not taken in yet
EXTENSION_CHANCE = 0.3  # of the permits about to lapse, those whose deadline the inspector moves
ON_HOLD_CHANCE = 0.04  # of the live permits with work under way
LIFTED_CHANCE = 0.015  # a stop-work order served and lifted again lately
OPEN = (PermitStatus.DRAFT, PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED)

# Stop-work orders (15.1.12: the Code or the approved plans not complied with) and what they
# say, with the section they cite. New Lisbon suspends sidewalk work whose concrete is not cured
# (§435-5) and street work that does not follow §435-8.
_NEW_WORK = "new"
_ALTERATION = "alteration"
_REPAIR = "repair"
# By the kind of work: new buildings and additions, alterations and repairs, razing and moving.
BUILDING_STOP_WORK: dict[str, tuple[str, ...]] = {
    _NEW_WORK: (
        "Framing does not follow the approved plans: beam sizes and post locations changed "
        "without the Building Inspector's approval",
        "Footings poured without the required footing inspection",
        "Foundation placed 3 ft closer to the side lot line than the approved survey shows",
        "Roof sheathing covered before the framing inspection",
        "Excavation left open and unguarded; no erosion control on the site",
    ),
    _ALTERATION: (
        "Load-bearing wall removed without the beam shown on the approved plans",
        "Walls closed in before the rough framing, plumbing and electrical inspections",
        "Work beyond the permit: a second-story addition that is not on the approved plans",
        "Fire separation between the garage and the dwelling removed",
    ),
    _REPAIR: (
        "Ice barrier missing at the eaves of the new roof",
        "Fence going up over the lot line shown on the survey",
        "Siding installed over rotted sheathing without the repairs the permit calls for",
    ),
    "site": (
        "Excavation left open and unguarded; no erosion control on the site",
        "Service connections not sealed before the building was razed (15.1.10(b))",
    ),
}
NL_STOP_WORK: dict[str, tuple[tuple[str, str], ...]] = {
    "SIDEWALK": (
        (
            "Concrete not cured or protected against rapid drying; surface marred",
            "§435-5 (Curing and drying)",
        ),
        ("Forms not approved by the Director of Public Works before the pour", "§435-5 (Slope)"),
    ),
    "CURB-GUTTER": (("Curb set off the established grade on record", "§435-6 (Establishment)"),),
    "STREET-OPENING": (
        ("Trench backfill not mechanically compacted in 12-inch layers", "§435-8 (Backfilling)"),
        ("Excavation not guarded or lighted at night", "§435-8 (Guarding)"),
    ),
}
LIFT_NOTICE = "Violation corrected and re-inspected on {day}; work may resume."
# Revocations (15.1.7(g)): the lettered reasons of desk.services.lifecycle.REVOCATION_REASONS
# and what happened. New Lisbon's street privilege permits are "subject to revocation without
# notice ... for violation" of their conditions (§435-10, Conditions of occupancy).
BUILDING_REVOCATIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("a", "c"), "Work continued after the stop-work order was posted."),
    (("e",), "The valuation on the application was understated by more than half."),
    (("d",), "No one in charge on the site at three consecutive inspections."),
    (("c",), "Approved plans altered without the Building Inspector's approval (15.1.8(a))."),
)
EXCAVATION_REVOCATION = (
    ("b",),
    "Excavation undermining the neighbouring garage foundation; shoring refused.",
)
NL_REVOCATIONS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "STREET-PRIVILEGE": (
        (
            ("c",),
            "Obstruction covered more than a third of the street and was not lighted at "
            "night (§435-10, Conditions of occupancy).",
        ),
        (
            ("c",),
            "Materials left in the street after the work ended (§435-10, Conditions of occupancy).",
        ),
    ),
}
NL_REVOCATION_SECTION = "§435-10 (Conditions of occupancy)"
# Why the inspector moved a deadline, by rule and deadline code, and by how many days.
EXTENSIONS: dict[tuple[Rule, str], tuple[str, int, int]] = {
    (Rule.BUILDING, START): (
        "Start delayed by the excavator's backlog, beyond the applicant's control (15.1.8(b))",
        30,
        90,
    ),
    (Rule.BUILDING, RESUME): (
        "Work suspended for the winter; exterior work resumes in the spring (15.1.8(b))",
        45,
        120,
    ),
    (Rule.BUILDING, COMPLETE): (
        "Windows and trusses delayed by the supplier, beyond the applicant's control (15.1.8(b))",
        90,
        180,
    ),
    (Rule.EROSION, EXPIRES): (
        "Site not yet stabilized; seeding finishes next growing season (15.2.8(e)(1))",
        60,
        180,
    ),
    (Rule.STREET_OPENING, EXPIRES): (
        "Operations begun; pavement restoration waits for the asphalt plant (§435-7, "
        "Renewal of permit)",
        30,
        30,
    ),
    (Rule.TEMPORARY_ELECTRICAL, EXPIRES): (
        "Permanent service delayed by the utility (15.1.76(a))",
        10,
        30,
    ),
    (Rule.TEMPORARY_OCCUPANCY, EXPIRES): (
        "Final grading and driveway wait for the spring (15.1.13(d))",
        10,
        40,
    ),
}
_NO_SITE_WORK = frozenset(
    {"OCCUPANCY", "TEMP-OCCUPANCY", "CHANGE-OF-USE", "ADDRESS-NUMBERS", "GREASE-INTERCEPTOR"}
)


def _work(kind: PermitKind) -> str:
    if kind.work_class in (WorkClass.NEW, WorkClass.ADDITION):
        return _NEW_WORK
    if kind.work_class is WorkClass.ALTERATION:
        return _ALTERATION
    if kind.work_class is WorkClass.REPAIR:
        return _REPAIR
    return "site"


def stop_work_reasons(kind: PermitKind) -> tuple[tuple[str, str], ...]:
    """What a stop-work order on a permit of this kind may say, with its section (none: the
    kind has no work on a site)."""
    if kind.code in NL_STOP_WORK:
        return NL_STOP_WORK[kind.code]
    if kind.trade == "building" and kind.code not in _NO_SITE_WORK:
        return tuple((text, "15.1.12") for text in BUILDING_STOP_WORK[_work(kind)])
    return ()


def revocation_grounds(kind: PermitKind) -> tuple[tuple[tuple[str, ...], str], ...]:
    if kind.code in NL_REVOCATIONS:
        return NL_REVOCATIONS[kind.code]
    if kind.trade == "building" and kind.code not in _NO_SITE_WORK:
        if _work(kind) in (_ALTERATION, _REPAIR):
            return BUILDING_REVOCATIONS
        return (*BUILDING_REVOCATIONS, EXCAVATION_REVOCATION)
    return ()


def revocation_text(codes: tuple[str, ...], details: str) -> str:
    """The reasons as desk.services.lifecycle.revoke_permit writes them."""
    text = "; ".join(f"({c}) {REVOCATION_REASONS[c]}" for c in sorted(set(codes)))
    return f"{text}. {details}" if details else text


def between(rng: random.Random, lo: int, hi: int) -> int:
    """A whole number from lo to hi inclusive: rng.randint's job at a fifth of its cost."""
    return lo + int(rng.random() * (hi - lo + 1))


def _day_between(rng: random.Random, lo: date, hi: date) -> date:
    """An office day from lo to hi (lo itself when there is none after it)."""
    day = next_office_day(lo + timedelta(days=between(rng, 0, max((hi - lo).days, 0))))
    return day if day <= hi else lo


@dataclass(frozen=True)
class Order:
    """A stop-work order (15.1.12) or a revocation (15.1.7(g)) as the app records it."""

    kind: str  # stop_work | revocation
    issued_on: date
    reasons: str
    section: str
    lifted_on: date | None = None
    lift_notice: str = ""


@dataclass(frozen=True)
class DemoExtension:
    deadline: str  # a deadline code of desk.domain.lifecycle
    until: date
    reason: str
    granted_on: date


@dataclass(frozen=True)
class Lifecycle:
    status: PermitStatus
    status_date: date
    issued_on: date | None = None
    expires_on: date | None = None
    commenced_on: date | None = None
    completed_on: date | None = None
    reviewed_on: date | None = None  # for in_review/approved/denied/withdrawn without issue
    approved_on: date | None = None
    last_activity_on: date | None = None
    requested_until: date | None = None
    emergency: bool = False
    order: Order | None = None
    extension: DemoExtension | None = None
    lapsed: str = ""  # expired: the code of the deadline that passed


def _requested_until(rng: random.Random, rule: Rule, issued: date) -> date | None:
    span = REQUESTED_DAYS.get(rule)
    if span is None:
        return None
    until = issued + timedelta(days=between(rng, *span))
    if rule is Rule.SOLID_FILL:  # 15.1.18: three consecutive months within the calendar year
        last = min(add_months(issued, 3) - timedelta(days=1), date(issued.year, 12, 31))
        until = min(until, last)
    return until


def term_end(dates: PermitDates) -> date | None:
    """The date the permit shows as 'expires' (desk.services.lifecycle.term_end's rule)."""
    ends = [d.due for d in deadlines(dates) if d.code in (COMPLETE, EXPIRES)]
    return max(ends) if ends else None


@cache
def _issued_term(
    rule: Rule, issued: date, requested: date | None, emergency: bool = False
) -> date | None:
    """term_end of a permit as issued (cached: the demo has a few thousand office days)."""
    return term_end(
        PermitDates(
            rule, PermitStatus.ISSUED, issued, requested_until=requested, emergency=emergency
        )
    )


def _extension(
    rng: random.Random, dates: PermitDates, missed: Deadline, today: date
) -> DemoExtension | None:
    """The inspector moves the deadline about to pass, a few days before it does, by a step the
    ordinance allows (desk.domain.lifecycle.check_extension decides)."""
    found = EXTENSIONS.get((dates.rule, missed.code))
    if found is None or dates.issued_on is None:
        return None
    reason, lo, hi = found
    until = missed.due + timedelta(days=between(rng, lo, hi))
    if dates.rule is Rule.STREET_OPENING:  # §435-8.A: renewed to November 14 at the latest
        cap = frozen_ground_cap(dates.approved_on or dates.issued_on, dates.emergency)
        until = min(until, cap) if cap is not None else until
    earliest = max(d for d in (dates.issued_on, dates.commenced_on) if d is not None)
    granted = next_office_day(max(missed.due - timedelta(days=between(rng, 1, 14)), earliest))
    if granted > missed.due or granted > today:
        return None
    try:
        check_extension(dates, missed.code, until)
    except ValidationError:
        return None
    return DemoExtension(missed.code, until, reason, granted)


def lifecycle(
    rng: random.Random,
    kind: PermitKind,
    applied_on: date,
    today: date,
    want: PermitStatus | None = None,
    extend: bool = False,
) -> Lifecycle:
    """Where a permit applied for on `applied_on` stands on `today`, and the dates on the way.
    Old permits are mostly completed; recent ones are still in review or under way. `want`
    steers the draw towards a status (the caller checks it got it: a permit too young to
    expire stays alive); `extend` grants the extension of the first deadline that passes."""
    code, trade, rule = kind.code, kind.trade, kind.lifecycle
    clamp = next_office_day
    S = PermitStatus
    quick = trade in _QUICK_TRADES or code in ("ELECTRICAL-TEMP", "GREASE-INTERCEPTOR")
    if quick:
        lag = rng.choice((0, 0, 0, 1, 1, 2, 3))
    elif code in ("RES-OTHER", "OCCUPANCY", "TEMP-OCCUPANCY", "ADDRESS-NUMBERS", "SOLID-FILL"):
        lag = rng.choice((0, 1, 1, 2, 3, 5))
    elif code in ("COM-NEW", "RES-NEW-DWELLING", "COM-REMODEL", "COM-SPECIAL"):
        lag = int(rng.triangular(7, 30, 14))
    else:
        lag = int(rng.triangular(1, 21, 5))
    age = (today - applied_on).days

    if want in OPEN or want in (S.DENIED, S.WITHDRAWN):
        assert want is not None
        return _undecided(rng, want, applied_on, today)
    r = rng.random()
    if want is None and age <= DRAFT_DAYS and r < 0.04:
        return Lifecycle(S.DRAFT, applied_on)
    if want is None and r < 0.025:  # denied or withdrawn before issue
        decided = clamp(applied_on + timedelta(days=rng.randint(3, 45)))
        if decided <= today:
            status = S.DENIED if r < 0.01 else S.WITHDRAWN
            return Lifecycle(status, decided, reviewed_on=decided)
        lag = (today - applied_on).days + 10  # still pending
    emergency = False
    if rule is Rule.STREET_OPENING and in_frozen_ground_season(applied_on):
        # §435-8 (Frozen ground): no openings from November 15 to May 1 but emergency
        # excavations, whose application follows within two business days (§435-7).
        if want is not None or rng.random() < 0.85:
            emergency, lag = True, between(rng, 0, 2)
        else:  # refused until the ground thaws
            decided = clamp(applied_on + timedelta(days=between(rng, 3, 10)))
            if decided <= today:
                return Lifecycle(S.DENIED, decided, reviewed_on=decided)
            return Lifecycle(S.IN_REVIEW, applied_on, reviewed_on=applied_on)
    elif rule is Rule.STREET_OPENING and extend and in_frozen_ground_season(today):
        # §435-8.A: only an emergency excavation is still open, renewed, in the season.
        emergency = True
    issued = clamp(applied_on + timedelta(days=lag))
    if want is not None and issued > today:
        issued = applied_on  # issued over the counter
    if issued > today:
        if age < 1 or (quick and age < 2):
            return Lifecycle(S.APPLIED, applied_on)
        reviewed = clamp(applied_on + timedelta(days=1))
        if reviewed > today:
            return Lifecycle(S.APPLIED, applied_on)
        if (issued - today).days <= 3 and not quick:
            approved = max(reviewed, today - timedelta(days=rng.randint(0, 2)))
            return Lifecycle(S.APPROVED, approved, reviewed_on=approved, approved_on=approved)
        return Lifecycle(S.IN_REVIEW, reviewed, reviewed_on=reviewed)

    requested = _requested_until(rng, rule, issued)
    # §435-8.A: a non-emergency opening ends by November 14 (desk/domain/lifecycle.py).
    alive = PermitDates(rule, S.ISSUED, issued, requested_until=requested, emergency=emergency)
    end = _issued_term(rule, issued, requested, emergency)
    first = Lifecycle(S.ISSUED, issued, issued, end, requested_until=requested, emergency=emergency)

    r = rng.random()
    if want is S.VOID or (want is None and r < 0.006):
        voided = min(clamp(issued + timedelta(days=between(rng, 1, 20))), today)
        return replace(first, status=S.VOID, status_date=voided)
    grounds = revocation_grounds(kind)
    if grounds and (want is S.REVOKED or (want is None and 0.006 <= r < 0.009)):
        latest = (end - issued).days - 1 if end is not None else 200
        revoked = clamp(issued + timedelta(days=between(rng, 15, max(15, min(200, latest)))))
        started = clamp(issued + timedelta(days=between(rng, 0, 10)))
        if started < revoked <= today:
            seen = _day_between(rng, max(started, revoked - timedelta(days=40)), revoked)
            at_revocation = replace(alive, status=S.WORK_STARTED, commenced_on=started)
            at_revocation = replace(at_revocation, last_activity_on=seen)
            if lapsed(at_revocation, revoked) is None:
                codes, details = rng.choice(grounds)
                section = NL_REVOCATION_SECTION if code in NL_REVOCATIONS else "15.1.7(g)"
                order = Order("revocation", revoked, revocation_text(codes, details), section)
                return replace(
                    first,
                    status=S.REVOKED,
                    status_date=revoked,
                    commenced_on=started,
                    last_activity_on=seen,
                    order=order,
                )

    # Work starts, goes on, and is completed, or is still under way, or lapsed.
    lo, hi = START_LAG.get(code, (0, 10) if quick else (1, 45))
    commenced: date | None = clamp(issued + timedelta(days=between(rng, lo, hi)))
    if rule is Rule.GREASE_INTERCEPTOR:
        commenced = None  # an annual permit to operate (15.1.57): in force to December 31
    elif want is S.ISSUED or (want is None and rule is Rule.BUILDING and rng.random() < 0.015):
        commenced = None  # issued, and work has not started (yet, or ever)
    last: date | None = None
    if commenced is not None and commenced > today:
        commenced = None
    if commenced is not None:
        lo, hi = DURATION.get(code, DEFAULT_DURATION)
        completed = clamp(commenced + timedelta(days=between(rng, lo, hi)))
        if want is S.COMPLETED and completed > today:
            completed = max(
                commenced, min(today, end or today) - timedelta(days=between(rng, 0, 5))
            )
        abandoned = want is S.EXPIRED or (
            want is None
            and end is not None
            and rng.random() < (0.05 if trade == "building" else 0.02)
        )
        under_way = want in (S.WORK_STARTED, S.ON_HOLD) or (not abandoned and completed > today)
        if not abandoned and not under_way:
            if end is None or completed <= end:
                return Lifecycle(
                    S.COMPLETED,
                    completed,
                    issued,
                    end,
                    commenced,
                    completed,
                    last_activity_on=completed,
                    requested_until=requested,
                    emergency=emergency,
                )
            # Ran over its term: completed after all if the inspector extended it in time.
            last = _day_between(rng, commenced, end)
            state = replace(
                alive, status=S.WORK_STARTED, commenced_on=commenced, last_activity_on=last
            )
            term = next(d for d in deadlines(state) if d.due == end)
            if extend or (want is None and rng.random() < EXTENSION_CHANCE):
                ext = _extension(rng, state, term, today)
                if ext is not None and completed <= ext.until:
                    moved = Extension(ext.deadline, ext.until, ext.reason)
                    return Lifecycle(
                        S.COMPLETED,
                        completed,
                        issued,
                        term_end(replace(state, extensions=(moved,))),
                        commenced,
                        completed,
                        last_activity_on=completed,
                        requested_until=requested,
                        emergency=emergency,
                        extension=ext,
                    )
        elif abandoned:  # work stopped some time after it started and never resumed
            last = _day_between(rng, commenced, min(commenced + timedelta(days=hi), today))
        else:  # under way: work seen on site lately
            last = _day_between(rng, max(commenced, today - timedelta(days=45)), today)
    status = S.WORK_STARTED if commenced is not None else S.ISSUED
    state = replace(alive, status=status, commenced_on=commenced, last_activity_on=last)
    missed = lapsed(state, today)
    extension = None
    if missed is not None and (extend or (want is None and rng.random() < EXTENSION_CHANCE)):
        extension = _extension(rng, state, missed, today)
        if extension is not None:
            state = replace(
                state,
                extensions=(Extension(extension.deadline, extension.until, extension.reason),),
            )
            missed = lapsed(state, today)
    out = replace(
        first,
        status=status,
        status_date=commenced or issued,
        expires_on=term_end(state),
        commenced_on=commenced,
        last_activity_on=last,
        extension=extension,
    )
    if missed is not None:  # the sweep marked it expired the morning after (sweep_lapsed)
        return replace(
            out, status=S.EXPIRED, status_date=missed.due + timedelta(days=1), lapsed=missed.code
        )
    # A stop-work order (15.1.12) on a permit under way: in force, or lifted lately.
    reasons = stop_work_reasons(kind)
    if commenced is None or last is None or not reasons or last < today - timedelta(days=45):
        return out
    roll = rng.random()
    if want is S.ON_HOLD or (want is None and roll < ON_HOLD_CHANCE):
        held = _day_between(rng, max(last, today - timedelta(days=40)), today)
        text, section = rng.choice(reasons)
        order = Order("stop_work", held, text, section)
        return replace(out, status=S.ON_HOLD, status_date=held, last_activity_on=held, order=order)
    if want is None and roll < ON_HOLD_CHANCE + LIFTED_CHANCE and last <= today - timedelta(days=5):
        held = _day_between(rng, max(last, today - timedelta(days=50)), today - timedelta(days=5))
        lifted = min(clamp(held + timedelta(days=between(rng, 2, 12))), today)
        text, section = rng.choice(reasons)
        notice = LIFT_NOTICE.format(day=short_date(lifted))
        order = Order("stop_work", held, text, section, lifted, notice)
        return replace(out, status_date=lifted, last_activity_on=lifted, order=order)
    return out


def _undecided(rng: random.Random, want: PermitStatus, applied_on: date, today: date) -> Lifecycle:
    """An application not (yet) issued, in the status asked for."""
    S = PermitStatus
    if want in (S.DRAFT, S.APPLIED):
        return Lifecycle(want, applied_on)
    if want in (S.DENIED, S.WITHDRAWN):
        decided = min(next_office_day(applied_on + timedelta(days=between(rng, 3, 30))), today)
        return Lifecycle(want, decided, reviewed_on=decided)
    reviewed = min(next_office_day(applied_on + timedelta(days=1)), today)
    if want is S.APPROVED:
        approved = _day_between(rng, reviewed, today)
        return Lifecycle(want, approved, reviewed_on=approved, approved_on=approved)
    return Lifecycle(want, reviewed, reviewed_on=reviewed)


# --- credentials -------------------------------------------------------------------------------


def credential_expiry(rng: random.Random, today: date) -> date:
    """Wisconsin credentials run in two- or four-year cycles; about one in seven has lapsed."""
    d = today + timedelta(days=rng.randint(-420, 1_300))
    return date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])


def credential_number(rng: random.Random, kind: CredentialKind) -> str:
    return f"{CREDENTIAL_PREFIX[kind]}-{rng.randint(1_000_000, 1_999_999)}"


# Demo staff (the municipality's inspector as shown on the letterhead).
DEMO_INSPECTOR_NAME = "Dale Kowalski"


# --- cashiering ----------------------------------------------------------------------------------
#
# What a permit is charged: the fee items its kind's intake form prices (resources/intake_fees.toml,
# desk/services/intake.py), with the amounts a clerk would enter where the form asks for one.

# The fee from a state uniform application (plumbing, electrical, HVAC, roofing): a rate of the
# valuation with a floor, rounded to the dollar. Plausible amounts, not a state fee table.
UNIFORM_FEE: dict[str, tuple[Decimal, Decimal]] = {
    "RES-OTHER": (Decimal("0.0065"), Decimal("50")),
    "PLUMBING": (Decimal("0.012"), Decimal("45")),
    "ELECTRICAL": (Decimal("0.010"), Decimal("50")),
    "ELECTRICAL-TEMP": (Decimal("0"), Decimal("50")),
    "HVAC": (Decimal("0.008"), Decimal("60")),
}
# New Lisbon's council has not set its fees in the shipped schedule (§435-7, §435-12): the
# clerk enters the amount the council set. These are the demo council's.
NL_ENTERED: dict[str, Decimal] = {
    "STREET-OPENING": Decimal("75.00"),
    "SIDEWALK": Decimal("35.00"),
    "CURB-GUTTER": Decimal("35.00"),
    "STREET-PRIVILEGE": Decimal("50.00"),
}
# Kinds whose form prices nothing and the items the clerk adds on the form for them.
EXTRA_ITEMS: dict[str, tuple[tuple[str, Decimal | None], ...]] = {
    "MOVE": (("MOVE-BUILDING", Decimal("4")),),  # inspector-hours
    "ADDRESS-NUMBERS": (("ADDR-BRACKET", Decimal("1")), ("ADDR-TILE", Decimal("4"))),
}
_OCCUPANCY_WORDS = (
    ("apartment", "multifamily"),
    ("hotel", "multifamily"),
    ("warehouse", "warehouse"),
    ("school", "institutional"),
    ("clinic", "institutional"),
    ("garage", "vehicle"),
)


def uniform_fee_amount(code: str, valuation: Decimal) -> Decimal:
    rate, floor = UNIFORM_FEE.get(code, (Decimal("0.0065"), Decimal("50")))
    return max(floor, (valuation * rate).quantize(Decimal("1")))


def occupancy_for(description: str) -> str:
    """The occupancy class of a new commercial building (it sets its fee, 15.1.21(b))."""
    words = description.lower()
    return next((cls for word, cls in _OCCUPANCY_WORDS if word in words), "mercantile")


@cache
def _kind_form(municipality: str, code: str) -> KindForm | None:
    from desk.services.intake import kind_form

    try:
        return kind_form(municipality, code)
    except (KeyError, ValueError):
        return None


def fee_request(
    municipality: str, code: str, work: Work, rng: random.Random
) -> QuoteRequest | None:
    """The fee request the intake form makes for this permit's work, or None when it prices
    nothing (solid fill, a sewer lateral priced later by front foot)."""
    from desk.services.intake import WorkValues, derived_items

    form = _kind_form(municipality, code)
    if form is None:
        return None
    # Full years since the street's final paving (New Lisbon §435-7 surcharge).
    age = Decimal(rng.randint(0, 14)) if form.has("pavement_age") else None
    values = WorkValues(
        valuation=work.valuation,
        areas=work.areas,
        dwelling_units=max(work.dwelling_units, 1),
        fee_amount=uniform_fee_amount(code, work.valuation),
        occupancy=occupancy_for(work.description),
        pavement_age_years=age,
    )
    try:
        items = list(derived_items(form, values))
    except ValidationError:
        return None
    items += [QuoteItem(c, quantity=q) for c, q in EXTRA_ITEMS.get(code, ())]
    if municipality == "new_lisbon":
        items = [
            QuoteItem(i.code, amount=NL_ENTERED[i.code], pavement_age_years=age)
            if i.code in NL_ENTERED
            else i
            for i in items
        ]
    return QuoteRequest(items=tuple(items)) if items else None


BANKS = (
    "Associated Bank",
    "BMO Harris Bank",
    "Tri City National Bank",
    "Landmark Credit Union",
    "Summit Credit Union",
    "PNC Bank",
    "Town Bank",
    "Educators Credit Union",
    "North Shore Bank",
)
VOID_REASONS = (
    "Keyed to the wrong permit; taken again on the right one",
    "Check written for the wrong amount; a new check was taken",
    "Card declined after the receipt printed; paid again",
)
SHORT_REASONS = (
    "Change given twice at the counter",
    "Coin roll miscounted; found short at the close",
    "Twenty-dollar bill given as change for a ten",
)
OVER_REASONS = (
    "Payer left without the change; kept for the payer's next visit",
    "Exact change not returned for a cash payment",
)
NSF_NOTICE = "{bank} returned item notice of {day}: insufficient funds (NSF)"
DIFFERENCE_RESOLUTION = (
    "The bank counted a $20.00 bill as counterfeit; the treasurer's office recorded the loss on "
    "{day}."
)
RECEIPT_PRINTED = 1  # every demo receipt was printed once at the counter
