"""People's own accounts on the organiser pages, their role per event, and one-time links.

The first account is made from the shared `ORGANISER_PASSWORD` while there is no administrator
(`bootstrap`, at the first login or by `flask demo`): login `organiser`, an admin. After that
the setting is not read again. An admin invites people to an event with a role
(roles.ACCOUNT_ROLES): the invitation is a one-time link on which the person chooses their
login and password. Passwords are hashed with werkzeug's scrypt; a link's token, like a
device token, is kept only as its SHA-256. A person's devices (joined through the account:
`join_device`) carry their name and follow their role; revoking the person revokes them.

Every refusal is an ApiError 400/403/404 whose message the pages show (translated).
"""

import secrets

from flask import current_app
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from . import roles, timeutil
from .auth import hash_token, new_join_code, new_token
from .errors import ApiError
from .extensions import db
from .fields import text_problem
from .models import Account, AccountLink, Device, Event, OrganiserSession, StaffRole

BOOTSTRAP_LOGIN = "organiser"
BOOTSTRAP_NAME = "Organiser"
PASSWORD_LENGTH = (10, 200)  # characters a password may have
LOGIN_LENGTH = (3, 64)
NAME_LENGTH = 100  # a person's shown name (also their devices' judge name)
LINK_HOURS = {"password": 7 * 24, "device": 24}  # how long a one-time link of each kind works
# compared against when the login is unknown, so a wrong login costs as long as a wrong password
_UNKNOWN = generate_password_hash(secrets.token_hex(16))


def password_hash(password: str) -> str:
    """The stored hash of `password`: werkzeug's, by the method the config's
    PASSWORD_HASH_METHOD names (werkzeug's default, scrypt, when unset; a test run sets a cheap
    one). Checking reads the method from the hash, so a change of method keeps old hashes valid."""
    method = current_app.config.get("PASSWORD_HASH_METHOD")
    return generate_password_hash(password, method) if method else generate_password_hash(password)


def bootstrap() -> Account | None:
    """The first account, when no administrator exists yet and ORGANISER_PASSWORD is set:
    login "organiser", admin, that password. None otherwise (also when another process made
    it at the same moment: the unique login keeps it one)."""
    password = current_app.config.get("ORGANISER_PASSWORD")
    if not password or db.session.scalar(db.select(Account.id).where(Account.admin.is_(True)).limit(1)) is not None:
        return None
    account = Account(login=BOOTSTRAP_LOGIN, name=BOOTSTRAP_NAME, admin=True, created_ms=timeutil.now_ms(),
                      password_hash=password_hash(password))
    db.session.add(account)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return None
    return account


def normal_login(text: str) -> str:
    """A login as it is stored and compared: spaces around it dropped, case folded."""
    return text.strip().casefold()


def authenticate(login: str, password: str) -> Account | None:
    """The live account with this login and password, else None (an unknown login takes as
    long to refuse as a wrong password)."""
    account = db.session.scalar(db.select(Account).where(Account.login == normal_login(login)[:200]))
    if account is None or account.password_hash is None:
        check_password_hash(_UNKNOWN, password)
        return None
    if not check_password_hash(account.password_hash, password) or account.revoked_ms is not None:
        return None
    return account


def check_name(name: str) -> str:
    """A person's name as given (stripped); ApiError 400 (field `name`) when empty, over
    NAME_LENGTH or not plain one-line text."""
    name = name.strip()
    if not name:
        raise ApiError.bad_request(_l("the name is needed"), "name")
    problem = text_problem(name)
    if problem:
        raise ApiError.bad_request(_l("the name %(problem)s", problem=problem), "name")
    if len(name) > NAME_LENGTH:
        raise ApiError.bad_request(_l("the name is longer than %(length)s characters", length=NAME_LENGTH), "name")
    return name


def check_login(login: str) -> str:
    """The login, stored form (normal_login): 3 to 64 letters, digits and . _ - @; ApiError 400
    (field `login`) otherwise, or when another account has it."""
    login = normal_login(login)
    low, high = LOGIN_LENGTH
    if not low <= len(login) <= high or not all(ch.isalnum() or ch in "._-@" for ch in login):
        raise ApiError.bad_request(_l("the login must have %(low)s to %(high)s letters, digits or . _ - @",
                                      low=low, high=high), "login")
    if db.session.scalar(db.select(Account.id).where(Account.login == login)) is not None:
        raise ApiError.bad_request(_l("the login %(login)r is taken: choose another", login=login), "login")
    return login


def check_password(password: str, repeated: str) -> str:
    """The new password when it has PASSWORD_LENGTH characters and both fields agree;
    ApiError 400 (field `password`) otherwise."""
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise ApiError.bad_request(_l("the password must have %(low)s to %(high)s characters", low=low, high=high),
                                   "password")
    if "\0" in password or any("\ud800" <= ch <= "\udfff" for ch in password):
        raise ApiError.bad_request(_l("the password holds a character that is not text"), "password")
    if password != repeated:
        raise ApiError.bad_request(_l("the two passwords differ"), "password")
    return password


def event_role(account: Account | None, event: Event) -> str | None:
    """The account's role in `event` (roles.ACCOUNT_ROLES), "organiser" for an admin, None
    for none or a revoked account."""
    if account is None or account.revoked_ms is not None:
        return None
    if account.admin:
        return "organiser"
    return db.session.scalar(db.select(StaffRole.role).where(
        StaffRole.account_id == account.id, StaffRole.event_id == event.id))


def account_events(account: Account) -> list[tuple[Event, str]]:
    """(event, the account's role there) for every event the account may see, newest first;
    an admin sees every event as organiser."""
    if account.admin:
        events = db.session.scalars(db.select(Event).order_by(Event.id.desc())).all()
        return [(e, "organiser") for e in events]
    rows = db.session.execute(db.select(Event, StaffRole.role).join(StaffRole, StaffRole.event_id == Event.id)
                              .where(StaffRole.account_id == account.id).order_by(Event.id.desc())).all()
    return [(e, role) for e, role in rows]


def event_staff(event: Event) -> list[dict]:
    """The event's people (not admins): `{"account", "name", "login", "role", "invited"
    (no password set yet), "revoked"}`, by name."""
    rows = db.session.execute(db.select(Account, StaffRole.role).join(StaffRole, StaffRole.account_id == Account.id)
                              .where(StaffRole.event_id == event.id)).all()
    return sorted(({"account": a.id, "name": a.name, "login": a.login, "role": role,
                    "invited": a.password_hash is None, "revoked": a.revoked_ms is not None}
                   for a, role in rows), key=lambda r: (r["name"].casefold(), r["account"]))


def other_accounts(event: Event) -> list[Account]:
    """The live accounts that have no role in `event` and are not admins (an admin may add
    them to it), by name."""
    inside = db.select(StaffRole.account_id).where(StaffRole.event_id == event.id)
    return list(db.session.scalars(db.select(Account).where(
        Account.admin.is_(False), Account.revoked_ms.is_(None), Account.id.not_in(inside)).order_by(Account.name)))


def issue_link(account: Account, kind: str, event: Event | None = None) -> str:
    """A new one-time link token of `kind` ("password" or "device") for the account (valid
    LINK_HOURS[kind]); earlier unused links of the same kind (and event) stop working.
    The token is returned once; only its hash is kept."""
    now = timeutil.now_ms()
    same_event = AccountLink.event_id == event.id if event else AccountLink.event_id.is_(None)
    db.session.execute(db.delete(AccountLink).where(
        AccountLink.account_id == account.id, AccountLink.kind == kind, same_event))
    db.session.execute(db.delete(AccountLink).where(AccountLink.expires_ms <= now))
    token = new_token()
    db.session.add(AccountLink(token_hash=hash_token(token), kind=kind, account_id=account.id,
                               event_id=event.id if event else None, created_ms=now,
                               expires_ms=now + LINK_HOURS[kind] * 3600_000))
    db.session.commit()
    return token


def open_link(token: str, kind: str) -> AccountLink:
    """The live one-time link of `kind` with this token: ApiError 404 when it is unknown,
    used, expired, or its account is revoked."""
    link = db.session.get(AccountLink, hash_token(token)) if token and len(token) <= 200 else None
    if link is None or link.kind != kind or link.used_ms is not None or link.expires_ms <= timeutil.now_ms():
        raise ApiError.not_found(_l("this link (used, expired or replaced by a newer one)"))
    account = db.session.get(Account, link.account_id)
    if account.revoked_ms is not None:
        raise ApiError.not_found(_l("this link (its account was revoked)"))
    return link


def set_password_by_link(token: str, login: str | None, password: str, repeated: str) -> Account:
    """Use a "password" link: the account's password is set (and its login, when it has none
    yet: an invitation), the link is used up, and every session of the account ends.
    ApiError 404 for a dead link, 400 for a bad login or password (nothing changes then)."""
    link = open_link(token, "password")
    account = db.session.get(Account, link.account_id)
    if account.login is None:
        account.login = check_login(login or "")
    account.password_hash = password_hash(check_password(password, repeated))
    link.used_ms = timeutil.now_ms()
    db.session.execute(db.delete(OrganiserSession).where(OrganiserSession.account_id == account.id))
    db.session.commit()
    return account


def change_password(account: Account, current: str, new: str, repeated: str) -> None:
    """A new password for a logged-in account: the current one must be right. Every session
    of the account ends (auth.start_session then gives this browser a new one). ApiError 400
    (field `current` or `password`) otherwise."""
    if not check_password_hash(account.password_hash or _UNKNOWN, current):
        raise ApiError.bad_request(_l("the current password is wrong"), "current")
    account.password_hash = password_hash(check_password(new, repeated))
    db.session.execute(db.delete(OrganiserSession).where(OrganiserSession.account_id == account.id))
    db.session.commit()


def invite(event: Event, name: str, role: str) -> tuple[Account, str]:
    """A new person with `role` in `event` and no password yet, and the token of their
    invitation (a "password" link). ApiError 400 for a bad name or role."""
    check_role(role)
    account = Account(name=check_name(name), created_ms=timeutil.now_ms())
    db.session.add(account)
    db.session.flush()
    db.session.add(StaffRole(account_id=account.id, event_id=event.id, role=role))
    db.session.commit()
    return account, issue_link(account, "password")


def check_role(role: str) -> str:
    if role not in roles.ACCOUNT_ROLES:
        raise ApiError.bad_request(_l("the role must be one of %(roles)s", roles=", ".join(roles.ACCOUNT_ROLES)),
                                   "role")
    return role


def set_staff_role(event: Event, account: Account, role: str | None) -> tuple[str | None, str | None]:
    """Give the person `role` in `event` (None: remove them from it). Their devices in the
    event follow: a new role changes the devices' role (roles.DEVICE_ROLE_OF); removal
    revokes them and gives the event a new join code (as revoking a device does). Returns
    (role before, role after). ApiError 400 for an unknown role or an admin (organiser of
    every event already)."""
    if account.admin:
        raise ApiError.bad_request(_l("%(name)s is an administrator: organiser of every event", name=account.name),
                                   "account")
    row = db.session.scalar(db.select(StaffRole).where(StaffRole.account_id == account.id,
                                                       StaffRole.event_id == event.id))
    before = row.role if row else None
    devices = live_devices(account, event)
    if role is None:
        if row is not None:
            db.session.delete(row)
        if devices:
            revoke_devices(devices, {event})
    else:
        check_role(role)
        if row is None:
            db.session.add(StaffRole(account_id=account.id, event_id=event.id, role=role))
        else:
            row.role = role
        for device in devices:
            device.role = roles.DEVICE_ROLE_OF[role]
    db.session.commit()
    return before, role


def live_devices(account: Account, event: Event | None = None) -> list[Device]:
    """The account's devices not revoked (in `event`, or in every event)."""
    query = db.select(Device).where(Device.account_id == account.id, Device.revoked_ms.is_(None))
    if event is not None:
        query = query.where(Device.event_id == event.id)
    return list(db.session.scalars(query))


def revoke_devices(devices: list[Device], events: set[Event]) -> None:
    """Revoke `devices` now and give each of `events` a new join code (their person knows
    the old one); the caller commits."""
    now = timeutil.now_ms()
    for device in devices:
        device.revoked_ms = now
    for event in events:
        event.join_code = new_join_code()


def revoke_account(account: Account) -> list[Event]:
    """Revoke a person: they can no longer log in (sessions end, links stop working), every
    device joined through the account is revoked, and each event they had a role or a device
    in gets a new join code. Returns those events. ApiError 400 for the last admin."""
    if account.revoked_ms is not None:
        return []
    if account.admin and db.session.scalar(db.select(db.func.count(Account.id)).where(
            Account.admin.is_(True), Account.revoked_ms.is_(None))) <= 1:
        raise ApiError.bad_request(_l("the last administrator cannot be revoked"), "account")
    devices = live_devices(account)
    event_ids = {d.event_id for d in devices} | set(db.session.scalars(
        db.select(StaffRole.event_id).where(StaffRole.account_id == account.id)))
    events = list(db.session.scalars(db.select(Event).where(Event.id.in_(event_ids)))) if event_ids else []
    account.revoked_ms = timeutil.now_ms()
    revoke_devices(devices, set(events))
    db.session.execute(db.delete(OrganiserSession).where(OrganiserSession.account_id == account.id))
    db.session.execute(db.delete(AccountLink).where(AccountLink.account_id == account.id))
    db.session.commit()
    return events


def join_device(account: Account, event: Event, device_name: str) -> tuple[Device, str]:
    """A new device of the account's person in `event` (their name, roles.DEVICE_ROLE_OF
    their role) and its bearer token, shown only here. ApiError 403 when they have no role
    in the event."""
    role = event_role(account, event)
    if role is None:
        raise ApiError.forbidden(_l("you have no role in this event"))
    token = new_token()
    device = Device(event_id=event.id, name=device_name, judge_name=account.name[:NAME_LENGTH],
                    role=roles.DEVICE_ROLE_OF[role], token_hash=hash_token(token), created_ms=timeutil.now_ms(),
                    account_id=account.id)
    db.session.add(device)
    db.session.commit()
    return device, token


def join_by_link(token: str, device_name: str) -> tuple[Device, str, Event]:
    """Use a "device" link: a new device of the link's person in its event (join_device);
    the link is used up. ApiError 404 for a dead link, 403 when the person no longer has a
    role in the event."""
    link = open_link(token, "device")
    account, event = db.session.get(Account, link.account_id), db.session.get(Event, link.event_id)
    link.used_ms = timeutil.now_ms()
    device, device_token = join_device(account, event, device_name)
    return device, device_token, event
