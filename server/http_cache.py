"""Cacheable JSON responses: an ETag over the body and a Cache-Control header."""

import hashlib
import json

from flask import Response, request


def cached_json(body: bytes, etag: str, cache_control: str) -> Response:
    """A 200 with `body` (JSON bytes), or a 304 when the client's If-None-Match holds
    `etag`."""
    response = Response(body, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    return response.make_conditional(request)


def etag_of(data) -> str:
    """A short ETag of JSON-ready data (keys sorted)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]
