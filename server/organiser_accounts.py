"""Organiser pages for people: logging in and out, the one-time link on which an invited person
(or one given a new password link) sets their password, one's own account (password, a
one-time link that joins a phone as oneself), the people page (admins: every account, new
password links, revoking a person) and the event page's Staff section (inviting people to
the event, their roles, removing them). Accounts themselves: accounts.py."""

import segno
from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from . import urls
from .accounts import (
    account_events,
    authenticate,
    bootstrap,
    change_password,
    event_role,
    invite,
    issue_link,
    open_link,
    revoke_account,
    set_password_by_link,
    set_staff_role,
)
from .audit import log
from .auth import csrf_ok, current_account, end_session, page_access, start_session
from .errors import ApiError
from .events import get_event
from .extensions import db
from .fields import MAX_BIGINT
from .i18n import label
from .models import Account, Event, StaffRole
from .organiser import _form_action, bp


def _safe_next() -> str:
    target = request.args.get("next", "")
    return target if target.startswith("/organiser") and not target.startswith("//") else url_for(".index")


@bp.route("/login", methods=["GET", "POST"])
def login():
    """The login form (login and password). A wrong one is 401 and counts toward
    LOGIN_LIMITS (auth.register_limits). While there is no administrator, ORGANISER_PASSWORD
    makes the first account (accounts.bootstrap: login "organiser")."""
    if request.method == "POST":
        bootstrap()
        account = authenticate(request.form.get("username", ""), request.form.get("password", ""))
        if account is not None:
            start_session(account)
            return redirect(_safe_next())
        nobody = db.session.scalar(db.select(Account.id).where(Account.admin.is_(True)).limit(1)) is None
        flash(_("No account exists yet: set %(setting)s to make the first organiser account (login %(login)s).",
                setting="ORGANISER_PASSWORD", login="organiser") if nobody else _("Wrong login or password."), "error")
        return render_template("organiser/login.html", username=request.form.get("username", "")), 401
    return render_template("organiser/login.html", username="")


@bp.post("/logout")
@page_access("own_account")
def logout():
    """End the session on the server: the same cookie no longer opens any page."""
    end_session()
    return redirect(url_for(".login"))


@bp.route("/welcome/<token>", methods=["GET", "POST"])
def welcome(token):
    """A one-time "password" link (an invitation, or a new password an admin issued): the
    person chooses their login (when they have none yet) and password, and is logged in. A
    dead link is a page saying so (404); a bad login or password brings the form back (400)."""
    try:
        link = open_link(token, "password")
    except ApiError as err:
        return render_template("organiser/welcome.html", dead=str(err)), 404
    account = db.session.get(Account, link.account_id)
    if request.method == "POST":
        if not csrf_ok():
            return "The form expired; go back and reload the page.", 400
        try:
            set_password_by_link(token, request.form.get("username"), request.form.get("password", ""),
                                 request.form.get("repeat", ""))
        except ApiError as err:
            db.session.rollback()
            flash(str(err), "error")
            return render_template("organiser/welcome.html", account=account, field=err.field,
                                   username=request.form.get("username", "")), 400
        start_session(account)
        flash(_("Welcome, %(name)s: your password is set.", name=account.name), "ok")
        return redirect(url_for(".index"))
    return render_template("organiser/welcome.html", account=account, username="")


@bp.get("/account")
@page_access("own_account")
def my_account():
    """One's own account: name, login, roles per event, the password form, and a one-time
    link (with its QR) that joins a phone to an event as oneself."""
    return render_template("organiser/account.html", events=account_events(current_account()), phone=None)


@bp.post("/account/password")
@page_access("own_account")
def password():
    """Change one's password: every session of the account ends, this browser gets a new one."""
    account = current_account()
    try:
        change_password(account, request.form.get("current", ""), request.form.get("password", ""),
                        request.form.get("repeat", ""))
    except ApiError as err:
        db.session.rollback()
        flash(str(err), "error")
        return render_template("organiser/account.html", events=account_events(account), phone=None,
                               field=err.field), 400
    start_session(account)
    flash(_("Password changed: every other session of your account has ended."), "ok")
    return redirect(url_for(".my_account"))


@bp.post("/account/phone")
@page_access("own_account")
def phone_link():
    """A one-time link (and its QR) that joins one phone to the chosen event as oneself; it
    works once, for 24 hours. 403 page text when one has no role in that event."""
    account = current_account()
    try:
        event = get_event(request.form.get("event", ""))
        if event_role(account, event) is None:
            raise ApiError.forbidden(_l("you have no role in this event"))
    except ApiError as err:
        flash(str(err), "error")
        return redirect(url_for(".my_account"))
    url = urls.device_link_url(issue_link(account, "device", event))
    phone = {"event": event, "url": url, "qr": segno.make(url, error="m").svg_inline(scale=4)}
    return render_template("organiser/account.html", events=account_events(account), phone=phone)


@bp.get("/people")
@page_access("people")
def people():
    """Every account (admins): name, login, whether the invitation is still open or the
    person revoked, their roles per event; a new password link, revoking."""
    accounts = db.session.scalars(db.select(Account).order_by(Account.name, Account.id)).all()
    roles = {}
    for row, event in db.session.execute(db.select(StaffRole, Event).join(Event, Event.id == StaffRole.event_id)):
        roles.setdefault(row.account_id, []).append((event, row.role))
    return render_template("organiser/people.html", accounts=accounts, roles=roles)


def _account(account_id: int) -> Account:
    account = db.session.get(Account, account_id) if account_id <= MAX_BIGINT else None
    if account is None:
        raise ApiError.not_found(_l("person"))
    return account


def _person_events(account: Account) -> list[Event]:
    return list(db.session.scalars(db.select(Event).join(StaffRole, StaffRole.event_id == Event.id)
                                   .where(StaffRole.account_id == account.id)))


@bp.post("/people/<int:account_id>")
@page_access("people")
def person_action(account_id):
    """`action` "link": a new one-time password link for the person (shown once; their
    earlier links stop working), "revoke": revoke the person (accounts.revoke_account)."""
    try:
        account = _account(account_id)
        if request.form.get("action") == "revoke":
            for event in revoke_account(account):
                log(event, "staff.revoke", {"account": account.id, "name": account.name})
            flash(_("%(name)s is revoked: their sessions ended and their devices were revoked.",
                    name=account.name), "ok")
        elif request.form.get("action") == "link":
            if account.revoked_ms is not None:
                raise ApiError.bad_request(_l("%(name)s is revoked", name=account.name))
            url = password_link(account)
            for event in _person_events(account):
                log(event, "staff.link", {"account": account.id, "name": account.name})
            flash(Markup(_("A new password link for %(name)s (it works once, for 7 days): %(link)s")) % {
                "name": account.name, "link": Markup('<code class="link">%s</code>') % url}, "ok")
        else:
            raise ApiError.bad_request(_l("unknown action"))
    except ApiError as err:
        db.session.rollback()
        flash(str(err), "error")
    return redirect(url_for(".people"))


def password_link(account: Account) -> str:
    """The address of a new one-time password link of the account."""
    return urls.base_url() + url_for(".welcome", token=issue_link(account, "password"))


@bp.post("/events/<slug>/staff")
@page_access("staff")
@_form_action
def staff_invite(slug):
    """Invite a person to the event with a role (accounts.invite): the page shows their
    one-time link once, to send them."""
    event = get_event(slug)
    role = request.form.get("role", "")
    account, token = invite(event, request.form.get("name", ""), role)
    log(event, "staff.invite", {"account": account.id, "name": account.name, "role": role})
    url = urls.base_url() + url_for(".welcome", token=token)
    return Markup(_("%(name)s is invited as %(role)s. Send them this link (it works once, for 7 days): %(link)s")) % {
        "name": account.name, "role": label(role), "link": Markup('<code class="link">%s</code>') % url}


@bp.post("/events/<slug>/staff/<int:account_id>")
@page_access("staff")
@_form_action
def staff_role(slug, account_id):
    """A person's role in the event (`role`), or removing them from it (`action` "remove":
    their devices there are revoked and the event gets a new join code)."""
    role = None if request.form.get("action") == "remove" else request.form.get("role", "")
    return _staff_change(get_event(slug), _account(account_id), role)


@bp.post("/events/<slug>/staff-add")
@page_access("staff")
@_form_action
def staff_add(slug):
    """Give a person who has an account (`account`, an id) `role` in the event: admins only
    (the list of every account is theirs); an organiser of the event invites."""
    if not current_account().admin:
        raise ApiError.forbidden(_l("only an administrator adds an existing person to an event: invite them"))
    text = request.form.get("account", "")
    account_id = int(text) if text.isascii() and text.isdigit() and len(text) < 12 else 0
    return _staff_change(get_event(slug), _account(account_id), request.form.get("role", ""))


def _staff_change(event: Event, account: Account, role: str | None) -> str:
    """Set (or, None, remove) the person's role in the event, write it to the audit log and
    say so. Only an admin gives a role to someone who has none in the event."""
    if account.revoked_ms is not None:
        raise ApiError.bad_request(_l("%(name)s is revoked", name=account.name))
    if event_role(account, event) is None and not current_account().admin:
        raise ApiError.forbidden(_l("only an administrator adds an existing person to an event: invite them"))
    before, after = set_staff_role(event, account, role)
    log(event, "staff.role", {"account": account.id, "name": account.name, "role": {"from": before, "to": after}})
    if after is None:
        return _("%(name)s no longer has a role in this event; their devices here are revoked.", name=account.name)
    return _("%(name)s is now %(role)s.", name=account.name, role=label(after))
