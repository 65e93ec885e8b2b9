"""The API of a person's account, for the judge app on a phone where they are logged in to
the organiser pages (the session cookie, same origin): their events, and joining the phone to
one of them as themselves. Joining through a one-time device link (made on their account
page) needs no session.

A device joined this way is like any other (a bearer token; the phone works offline as
before) but carries the person's name, takes their role (roles.DEVICE_ROLE_OF) and follows
it, and is revoked with them.
"""

from flask import g

from .accounts import account_events, join_by_link, join_device
from .audit import log
from .auth import current_account
from .clock import event_summary
from .errors import ApiError, documented_errors
from .events import get_event
from .jsonbody import Blueprint
from .roles import DEVICE_ROLE_OF
from .schemas import AccountJoinIn, AccountOut, JoinLinkIn, JoinOut

bp = Blueprint("account", __name__, url_prefix="/api", description="A person's account (organiser pages' session)")


def joined(device, token, event, via: str) -> dict:
    """The join answer for a new device (as POST /api/join gives), written to the audit log."""
    g.device = device
    log(event, "device.join", {"device": device.id, "judge": device.judge_name, "role": device.role, "via": via})
    return {"token": token, "device_id": device.id, "role": device.role, "judge_name": device.judge_name,
            "event": {"id": event.id, **event_summary(event)}}


@bp.get("/me")
@bp.response(200, AccountOut)
@documented_errors(bp, 401)
def me():
    """The logged-in person (organiser pages' session cookie): `{"name", "events": [{"slug",
    "name", "role", "device_role"}]}`, the events they have a role in (every event for an
    admin), newest first. 401 without a live session."""
    account = current_account()
    if account is None:
        raise ApiError.unauthorized("log in to the organiser pages first")
    return {"name": account.name, "events": [
        {"slug": e.slug, "name": e.name, "role": role, "device_role": DEVICE_ROLE_OF[role]}
        for e, role in account_events(account)]}


@bp.post("/me/devices")
@bp.arguments(AccountJoinIn)
@bp.response(200, JoinOut)
@documented_errors(bp, 400, 401, 403, 404, 413)
def join_as_me(body):
    """Join this device to `event` (a slug) as the logged-in person: `{"event",
    "device_name"}` → the same answer as POST /api/join, with the person's name as
    `judge_name` and the role of their role in the event. 401 without a live session, 403
    when they have no role in the event, 404 for an unknown event."""
    account = current_account()
    if account is None:
        raise ApiError.unauthorized("log in to the organiser pages first")
    event = get_event(body["event"])
    device, token = join_device(account, event, body["device_name"])
    return joined(device, token, event, "account")


@bp.post("/join/link")
@bp.arguments(JoinLinkIn)
@bp.response(200, JoinOut)
@documented_errors(bp, 400, 403, 404, 413, 429)
def join_with_link(body):
    """Join through a one-time device link (`{"link": token, "device_name"}`, the token from
    the person's account page, `/#/join/link/<token>`): the same answer as POST /api/join,
    as that person in the link's event. The link is used up. 404 for a link unknown, used,
    expired or of a revoked person (counted like wrong join codes: JOIN_LIMITS; over them,
    429); 403 when the person no longer has a role in the event."""
    device, token, event = join_by_link(body["link"].strip(), body["device_name"])
    return joined(device, token, event, "link")
