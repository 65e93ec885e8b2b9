"""Strict JSON request bodies for the API's blueprints.

Python's json module accepts `NaN` and `Infinity` (not JSON) and raises RecursionError on
very deep nesting; here both, and any body nested deeper than MAX_DEPTH levels, are a 400
in the API's error shape instead of a stored NaN or a 500.
"""

import json
import sys

import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

MAX_DEPTH = 64  # nesting levels of arrays and objects a body may have


def _no_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _too_deep(value, limit: int) -> bool:
    """Whether `value` nests arrays/objects more than `limit` levels (iterative)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def strict_loads(text: str):
    """`json.loads` without NaN/Infinity and without nesting deeper than MAX_DEPTH; every
    problem is a json.JSONDecodeError."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, 0) from None
    except ValueError as err:
        if "integer string conversion" in str(err):  # Python's own limit, in its own words
            err = f"a number has more than {sys.get_int_max_str_digits()} digits"
        raise json.JSONDecodeError(str(err), text, 0) from None
    if _too_deep(value, MAX_DEPTH):
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, 0)
    return value


class StrictJsonParser(FlaskParser):
    """webargs' Flask parser reading JSON bodies with `strict_loads`; a body that fails
    its schema is 400 (documented so in the OpenAPI document)."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        return strict_loads(data.decode("utf-8") if isinstance(data, bytes) else data)

    def _handle_invalid_json_error(self, error, req, *args, **kwargs):
        reason = getattr(error, "msg", None) or "not UTF-8"
        abort(400, exc=error, messages={"json": [f"invalid JSON body: {reason}"]})


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint parsing JSON bodies strictly (see StrictJsonParser)."""

    ARGUMENTS_PARSER = StrictJsonParser()
