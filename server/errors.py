"""One error shape for the whole API.

Every `/api/` error is `{"error": {"code", "message", "field"?, "lines"?}}` with the matching
HTTP status (`lines`: the bad lines of a refused text, such as a decklist). Views raise
through the named constructors below (or `abort`); marshmallow validation errors from
flask-smorest (422) are reported as 400 `bad_request` naming the first bad field.
"""

from http import HTTPStatus

from flask import jsonify, request
from flask_babel import force_locale
from flask_smorest import Api
from marshmallow import Schema, fields, validate
from werkzeug.exceptions import HTTPException, InternalServerError

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "bad_request",
    429: "rate_limited",
}


class ApiError(Exception):
    """An API error with its HTTP status, code, message, optional field, and optional `lines`
    (a refused text's bad lines: [{"line", "text", "problem", "message", ...}])."""

    def __init__(self, status: int, message: str, field: str | None = None, lines: list[dict] | None = None):
        super().__init__(message)
        self.status, self.message, self.field, self.lines = status, message, field, lines

    @classmethod
    def bad_request(cls, message, field=None):
        return cls(400, message, field)

    @classmethod
    def unauthorized(cls, message="a valid device token is required"):
        return cls(401, message)

    @classmethod
    def forbidden(cls, message):
        return cls(403, message)

    @classmethod
    def not_found(cls, what):
        return cls(404, f"{what} not found")

    @classmethod
    def conflict(cls, message):
        return cls(409, message)

    @classmethod
    def too_large(cls, message):
        return cls(413, message)

    @classmethod
    def rate_limited(cls, message):
        return cls(429, message)


def error_response(status: int, message, field: str | None = None, lines: list[dict] | None = None):
    """The one error shape; `message` (text, or a lazily translated one that the organiser
    pages show in their language) is English here, the API's one language, as are the
    `message`s of `lines`."""
    with force_locale("en"):
        message = str(message)
        lines = [{**line, "message": str(line["message"])} for line in lines] if lines else None
    body = {"code": CODES.get(status, "server_error" if status >= 500 else "error"),
            "message": message}
    if field:
        body["field"] = field
    if lines:
        body["lines"] = lines
    response = jsonify({"error": body})
    response.status_code = 400 if status == 422 else status
    return response


def first_error(messages, prefix=""):
    """The dotted path of the first bad field in a marshmallow error dict, and its message."""
    if isinstance(messages, dict) and messages:
        key, value = next(iter(messages.items()))
        return first_error(value, f"{prefix}.{key}" if prefix else str(key))
    if isinstance(messages, list) and messages:
        if isinstance(messages[0], dict | list):
            return first_error(messages[0], prefix)
        return prefix, "; ".join(str(m) for m in messages)
    return prefix, str(messages)


class ErrorBody(Schema):
    code = fields.String(required=True, validate=validate.OneOf(
        sorted({*CODES.values(), "server_error", "error"})))
    message = fields.String(required=True)
    field = fields.String(metadata={"description": "the request field at fault, when one is"})
    lines = fields.List(fields.Dict(), metadata={
        "description": "a refused text's bad lines: {line (1-based, or null), text, problem (a code), message, "
                       "and the problem's values}"})


class ErrorOut(Schema):
    """Every API error: `{"error": {"code", "message", "field"?, "lines"?}}`."""

    error = fields.Nested(ErrorBody, required=True)


def documented_errors(bp, *statuses: int):
    """A view decorator documenting the error statuses the view can answer with (each in
    the one error shape; 304 has no body)."""

    def decorate(view):
        for status in statuses:
            view = bp.alt_response(status, response=HTTPStatus(status).name)(view)
        return view

    return decorate


class JsonErrorsApi(Api):
    """flask-smorest's Api with the project's error shape on `/api/` paths; the OpenAPI
    document lists each view's error statuses with that shape (no catch-all "default")."""

    ERROR_SCHEMA = ErrorOut
    DEFAULT_ERROR_RESPONSE_NAME = None

    def handle_http_exception(self, error: HTTPException):
        if not request.path.startswith("/api"):
            return error
        messages = (getattr(error, "data", None) or {}).get("messages")
        if messages:
            # flask-smorest keys messages by location first ("json", "query", ...)
            field, text = first_error(next(iter(messages.values())))
            return error_response(error.code, f"{field}: {text}" if field else text, field)
        return error_response(error.code or 500, error.description or error.name)


def register_error_handlers(app):
    """Render `ApiError` and unexpected exceptions on `/api/` paths in the one shape."""

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError):
        return error_response(error.status, error.message, error.field, error.lines)

    @app.errorhandler(InternalServerError)
    def _server_error(error):
        if request.path.startswith("/api"):
            return error_response(500, "internal server error")
        return error
