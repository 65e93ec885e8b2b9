"""Who may read and write what: the one table of roles, and the one check of it.

Roles: `anonymous` (no token: players, the public, a revoked device, a device of another
event), a device's role given by the organiser (`floor_judge`, the default on joining;
`head_judge`; `scorekeeper`), and `organiser` (the pseudo-device the organiser pages'
approvals are recorded as). A revoked device's token and another event's token are refused
(401), so both act as `anonymous` for the event.

People log in to the organiser pages with their own account (accounts.py), which holds one
role per event (ACCOUNT_ROLES); PAGES says what each role may do on the pages of that event.
An `admin` account (the first one) is organiser of every event and the only one that creates
events and manages people. A device joined through an account takes DEVICE_ROLE_OF its
person's role.

Adding a record type: its payload schema in records.py and one row in RECORDS below.
Adding an organiser page: its view takes `@page_access("<a key of PAGES>")` (auth.py).
"""

ANONYMOUS = "anonymous"
DEVICE_ROLES = ("floor_judge", "head_judge", "scorekeeper")  # what the organiser can give a device
JUDGES = ("floor_judge", "head_judge", "organiser")
HEADS = ("head_judge", "organiser")
DEVICES = (*DEVICE_ROLES, "organiser")
EVERYONE = (ANONYMOUS, *DEVICES)

# What each action of the API needs (the organiser pages: PAGES below).
ACTIONS = {
    "read_clock": EVERYONE,  # server time, the event's clock, rulesets and the engine
    "join": EVERYONE,  # with the event's current join code
    "read_event": DEVICES,  # players, tables, the device's own role
    "sync": DEVICES,  # push what RECORDS lets the role write, pull what it lets it read
    "read_history": JUDGES,  # a player's penalties (with every judge's)
    "void_any": HEADS,  # void another device's record (otherwise only one's own)
    "read_review": HEADS,  # the head judge's review list
    "create_call": EVERYONE,  # call a judge to a table (players; the ruleset may refuse spectators)
    "read_calls": JUDGES,  # the event's judge calls
    "answer_calls": JUDGES,  # take a call, close it with a ruling
    "read_deck_checks": HEADS,  # deck-check coverage (checked players, top-cut players never checked)
    # a player's own decklist, read and submitted with their code (players' page); the lists
    # reach judges through sync (RECORDS "decklist")
    "own_decklist": EVERYONE,
}

# --- people's accounts on the organiser pages ----------------------------------------------

ADMIN = "admin"  # an account's flag, not a role in an event: every event as organiser, and PAGES' ADMIN rows
ACCOUNT_ROLES = ("organiser", "head_judge", "scorekeeper", "floor_judge")  # a person's role in one event
ANY_ACCOUNT = "account"  # any logged-in account, whatever its roles
# the role of a device joined through an account: an organiser's phone joins as head judge
# (the app's fullest role; the "organiser" device is the pages' own)
DEVICE_ROLE_OF = {"organiser": "head_judge", "head_judge": "head_judge", "scorekeeper": "scorekeeper",
                  "floor_judge": "floor_judge"}
EVENT_STAFF = ("organiser", "head_judge", "scorekeeper")

# organiser page action -> who may: account roles in the page's event, ADMIN, or ANY_ACCOUNT
# (pages without an event). Anyone else: the login page (not logged in) or 403.
PAGES = {
    "own_account": (ANY_ACCOUNT,),  # the event list, one's own account, password, device links
    "create_event": (ADMIN,),
    "people": (ADMIN,),  # every account: invite again, revoke a person
    "event_page": EVENT_STAFF,  # the event page, the round board
    "run_rounds": EVENT_STAFF,  # start, pause, resume, end a round
    "import": ("organiser", "scorekeeper"),  # players and pairings (preview, confirm), table QR cards
    "settings": ("organiser",),  # stage, head-judge setting, call escalation
    "devices": ("organiser",),  # a device's role, revoking a device, a new join code
    "staff": ("organiser",),  # invite people to the event, their roles, removing them
    "approve": ("organiser", "head_judge"),
    "penalty_exports": ("organiser", "head_judge"),  # penalties CSV and JSON, appeals CSV
    "round_exports": EVENT_STAFF,  # results CSV, calls CSV
    "audit": ("organiser",),  # the event's audit log and its CSV
    # registered decklists: intake, the deadline and sizes, print, CSV, players' code slips
    "decklists": ("organiser",),
}

# record type -> (roles that may write it, roles that may read it). A void is written by a
# role that may write the record it voids (its own records; any device's with "void_any")
# and read by the roles that may read that record.
RECORDS = {
    "penalty": (JUDGES, JUDGES),
    "time_extension": (JUDGES, DEVICES),
    "time_call": (JUDGES, DEVICES),
    "match_result": (DEVICES, DEVICES),
    "approval": (HEADS, JUDGES),
    "resolution": (HEADS, JUDGES),
    "void": (DEVICES, DEVICES),
    "deck_check": (JUDGES, JUDGES),
    # made by the server alone: for the organiser (pages) or a player (players' page, with a code)
    "decklist": (("organiser",), JUDGES),
    "appeal": (JUDGES, JUDGES),
    "appeal_decision": (HEADS, JUDGES),
}


def may(role: str | None, action: str) -> bool:
    """Whether `role` (None: anonymous) may do `action` (a key of ACTIONS)."""
    return (role or ANONYMOUS) in ACTIONS[action]


def may_page(event_role: str | None, admin: bool, action: str) -> bool:
    """Whether a logged-in account may do the organiser page `action` (a key of PAGES):
    `event_role` is its role in the page's event (None: none, or a page without an event),
    `admin` its admin flag (an admin is organiser of every event)."""
    allowed = PAGES[action]
    if ANY_ACCOUNT in allowed or (admin and (ADMIN in allowed or "organiser" in allowed)):
        return True
    return event_role is not None and event_role in allowed


def may_write(role: str, record_type: str) -> bool:
    return role in RECORDS[record_type][0]


def readable_types(role: str) -> tuple[str, ...]:
    """The record types `role` may read (voids only of these; see sync.pull)."""
    return tuple(t for t, (_, readers) in RECORDS.items() if role in readers and t != "void")


def needed(roles: tuple[str, ...]) -> str:
    """How a refusal names the roles that would be allowed: "role head_judge or organiser
    required"."""
    return f"role {' or '.join(r for r in roles if r != ANONYMOUS)} required"
