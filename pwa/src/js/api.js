// Calls to the organiser server (same origin). Errors are thrown as ApiError with the
// server's {"error": {"code", "message", "field", "lines"}} shape (lines: a refused text's bad
// lines), or code "network" when unreachable.
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, field = null, lines = null) {
    super(message);
    Object.assign(this, { status, code, field, lines });
  }
}

/** fetch JSON from `path`; `body` (object) makes it a POST; `token` adds the bearer header.
 * Resolves to the parsed JSON. Times out after `timeoutMs` milliseconds. */
export async function api(path, { body, token, timeoutMs = 15000 } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new ApiError(0, "network", t("The server cannot be reached."));
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || `http_${res.status}`, e.message || `HTTP ${res.status}`, e.field,
      Array.isArray(e.lines) ? e.lines : null);
  }
  return data;
}
