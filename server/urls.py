"""The address phones use to reach this server, for join links and their QR codes.

`PUBLIC_URL` (config or environment), e.g. `https://judges.example.org`, is that address
wherever the server cannot see it itself: behind a PaaS router or a venue's proxy, or when
the organiser opens the pages on the server machine as `127.0.0.1`. Without it, the address
of the request being answered is used (the one the organiser's browser used).
"""

import ipaddress
from urllib.parse import urlsplit

from flask import current_app, request


def check_public_url(value: str | None) -> str | None:
    """`value` without a trailing slash, or None when unset or blank. Raises ValueError
    (naming PUBLIC_URL) unless it is an http:// or https:// address with a host and no
    query or fragment."""
    if value is None or not value.strip():
        return None
    value = value.strip().rstrip("/")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"PUBLIC_URL must be an http:// or https:// address such as "
                         f"https://judges.example.org, not {value!r}")
    return value


def base_url() -> str:
    """This server's address for phones, without a trailing slash (in a request)."""
    return check_public_url(current_app.config.get("PUBLIC_URL")) or request.url_root.rstrip("/")


def join_url(code: str, base: str | None = None) -> str:
    """The link that opens the judge app on its Event screen with `code` filled in."""
    return f"{base or base_url()}/#/join/{code}"


def device_link_url(token: str, base: str | None = None) -> str:
    """The one-time link that opens the judge app and joins the phone as the link's person
    (accounts.issue_link "device")."""
    return f"{base or base_url()}/#/join/link/{token}"


def phones_cannot_reach(url: str) -> bool:
    """True when `url`'s host is this machine only (localhost, 127.0.0.0/8, ::1) or the
    any-address 0.0.0.0: a phone scanning a QR code of it reaches nothing."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified
