"""Serves the built judge app (pwa/dist) at `/`: index.html, `/sw.js` and its assets.

`.wasm` goes out as application/wasm and `.mjs` as text/javascript (Pyodide hangs
otherwise). The service worker and index.html are revalidated on every load so a new build
reaches phones.
"""

import mimetypes
from pathlib import Path

from flask import Blueprint, abort, current_app, send_from_directory

mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/manifest+json", ".webmanifest")

bp = Blueprint("pwa", __name__)
NO_CACHE = ("index.html", "sw.js")


def dist() -> Path:
    configured = current_app.config.get("PWA_DIST")
    return Path(configured) if configured else Path(__file__).resolve().parent.parent / "pwa" / "dist"


@bp.get("/", defaults={"filename": "index.html"})
@bp.get("/<path:filename>")
def app_file(filename):
    """A file of the app build; 404 when it is not there (or the app is not built)."""
    folder = dist()
    if not (folder / "index.html").exists():
        if filename == "index.html":
            return ("The judge app is not built yet (npm run --prefix pwa build). "
                    "Organiser pages: /organiser/", 200, {"Content-Type": "text/plain"})
        abort(404)
    response = send_from_directory(folder, filename)
    if filename in NO_CACHE:
        response.headers["Cache-Control"] = "no-cache"
    return response
