"""Serves the built judge app (pwa/dist) at `/`: index.html, `/sw.js` and its assets.

WhiteNoise answers for every file of the build, in front of Flask: it sends the Brotli copy
the build wrote beside a file to browsers that accept Brotli, else the gzip copy (the first
visit's files shrink from about 13.7 MiB to 3.5 MiB), with ETag and Last-Modified for cheap
revalidation. `.wasm` goes out
as application/wasm and `.mjs` as text/javascript (Pyodide hangs otherwise). index.html and
the service worker are marked `no-cache` so a new build reaches phones. Paths that are not
files of the build fall through to Flask: `/` (index.html), its pages, the API, or a 404.
"""

from pathlib import Path

from flask import Blueprint, Flask, current_app, send_from_directory
from whitenoise import WhiteNoise

MIMETYPES = {".wasm": "application/wasm", ".mjs": "text/javascript",
             ".webmanifest": "application/manifest+json"}
SHELL = ("/index.html", "/sw.js")

bp = Blueprint("pwa", __name__)


def dist(config) -> Path:
    """The folder of the built app: config `PWA_DIST`, else `pwa/dist` beside `server/`."""
    configured = config.get("PWA_DIST")
    return Path(configured) if configured else Path(__file__).resolve().parent.parent / "pwa" / "dist"


def _headers(headers, _path: str, url: str) -> None:
    if url in SHELL:
        headers["Cache-Control"] = "no-cache"


def serve_app_files(app: Flask) -> None:
    """Put WhiteNoise in front of `app` for the files of the build (read once, at start).

    Does nothing when the app is not built: then `/` says so (see `app_missing`).
    """
    folder = dist(app.config)
    if (folder / "index.html").exists():
        # index_file stays off: WhiteNoise would redirect /index.html (which the service
        # worker precaches) to /; `app_root` below answers / instead.
        app.wsgi_app = WhiteNoise(app.wsgi_app, root=str(folder), max_age=None,
                                  mimetypes=MIMETYPES, add_headers_function=_headers)


@bp.get("/")
def app_root():
    """The app's page (index.html, revalidated on every load), or a note that it is not built."""
    folder = dist(current_app.config)
    if not (folder / "index.html").exists():
        return ("The judge app is not built yet (npm run --prefix pwa build). "
                "Organiser pages: /organiser/", 200, {"Content-Type": "text/plain"})
    response = send_from_directory(folder, "index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/favicon.ico")
def favicon():
    """The app's icon for the browser tab (the organiser pages too); 204 when not built."""
    icon = dist(current_app.config) / "icons" / "icon-192.png"
    if not icon.exists():
        return "", 204
    return send_from_directory(icon.parent, icon.name, mimetype="image/png", max_age=86400)
