"""Who may read and write what: the one table of roles, and the one check of it.

Roles: `anonymous` (no token: players, the public, a revoked device, a device of another
event), a device's role given by the organiser (`floor_judge`, the default on joining;
`head_judge`; `scorekeeper`), and `organiser` (the password session of the organiser
pages, and the pseudo-device its approvals are recorded as). A revoked device's token and
another event's token are refused (401), so both act as `anonymous` for the event.

Adding a record type: its payload schema in records.py and one row in RECORDS below.
"""

ANONYMOUS = "anonymous"
DEVICE_ROLES = ("floor_judge", "head_judge", "scorekeeper")  # what the organiser can give a device
JUDGES = ("floor_judge", "head_judge", "organiser")
HEADS = ("head_judge", "organiser")
DEVICES = (*DEVICE_ROLES, "organiser")
EVERYONE = (ANONYMOUS, *DEVICES)

# What each action of the API and the pages needs. The organiser pages and exports all need
# the organiser's session ("organiser_pages").
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
    "organiser_pages": ("organiser",),
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


def may_write(role: str, record_type: str) -> bool:
    return role in RECORDS[record_type][0]


def readable_types(role: str) -> tuple[str, ...]:
    """The record types `role` may read (voids only of these; see sync.pull)."""
    return tuple(t for t, (_, readers) in RECORDS.items() if role in readers and t != "void")


def needed(roles: tuple[str, ...]) -> str:
    """How a refusal names the roles that would be allowed: "role head_judge or organiser
    required"."""
    return f"role {' or '.join(r for r in roles if r != ANONYMOUS)} required"
