"""Steps a judge takes in the app, shared by the browser tests."""

import contextlib

from .conftest import PHONE, ROOT, wait_python


def join(page, server, event, judge):
    """Open the app on `server`, join `event` as `judge` and wait for the clock screen, drawn
    with the event's players, pairings and clock, and Python."""
    page.goto(server.url + "/#/join")
    page.fill("#join-code", event["code"])
    page.fill("#judge-name", judge)
    page.click("#join-btn")
    page.wait_for_selector("main[data-screen=clock]")
    wait_python(page)
    # the event's players and pairings and its clock are in, and the screen drawn with them
    page.wait_for_function("() => window.judgeApp.app.detail && window.judgeApp.app.clock")
    settled(page)


def wait_synced(page, timeout_ms=20_000):
    """Wait until the outbox is empty and a sync has succeeded."""
    page.wait_for_function(
        """() => document.querySelector('#sync').dataset.waiting === '0'
              && /All sent · \\d/.test(document.querySelector('#sync').textContent)""",
        timeout=timeout_ms)


def wait_resolved(page, predicate, timeout_ms=20_000):
    """Wait until the page's async function `predicate` (JavaScript source, e.g. "async () =>
    (await window.judgeApp.decklists()) === 1") resolves to a true value, asking again every
    50 ms. (page.wait_for_function does not await a promise: it takes any promise as true.)
    Raises when `timeout_ms` pass first."""
    page.evaluate("""async ([source, timeout]) => {
        const predicate = (0, eval)(`(${source})`);
        const end = Date.now() + timeout;
        while (!(await predicate())) {
            if (Date.now() > end) throw new Error(`still not true after ${timeout} ms: ${source}`);
            await new Promise((r) => setTimeout(r, 50));
        }
    }""", [predicate, timeout_ms])


def double_tap(page, selector):
    """Two taps on `selector` before the first one's work is done (the slowest phone's case)."""
    page.eval_on_selector(selector, "el => { el.click(); el.click(); }")


def settled(page):
    """Wait until what the last taps started has run its course: two frames drawn, the engine's
    worker has answered every request sent before this one (it answers in order), IndexedDB has
    finished every write begun before (a read of the records waits for them), and two frames
    more. A test that checks a double tap acted once reads the page after this."""
    page.evaluate("""async () => {
        const frames = async () => { for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r)); };
        await frames();
        if (window.judge?.state?.ready) await window.judge.historySeen([], "nobody");
        await window.judgeApp.records();
        await frames();
    }""")


def look_up_penalty(page, search, infraction, player_id):
    """Search, pick `infraction`, pick the player and show the decision card."""
    page.goto(page.url.split("#")[0] + "#/penalty")
    page.fill("#pen-search", search)
    page.click(f"[data-infraction={infraction}]")
    page.select_option("#pen-player", str(player_id))
    page.click("#pen-decide")
    page.wait_for_selector("#pen-card")
    return {
        "penalty": page.get_attribute("#pen-penalty", "data-penalty"),
        "upgraded": page.locator("#pen-upgraded").count() == 1,
        "history": page.text_content("#pen-history"),
    }


def standalone(page, url, ruleset, level=None):
    """Use `ruleset` (at `level`) on its own, with no server, as judge Ola."""
    page.goto(url + "/#/join")
    page.select_option("#standalone-ruleset", ruleset)
    if level:
        page.select_option("#standalone-level", level)
    page.fill("#judge-name", "Ola")
    page.click("#standalone-btn")
    page.wait_for_selector("main[data-screen=penalty]")


def local_round(page, url, minutes, ruleset="wotf"):
    """A phone using `ruleset` on its own, its own round of `minutes` started on the Clock
    screen and shown."""
    standalone(page, url, ruleset)
    page.goto(url + "/#/clock")
    page.fill("#local-minutes", str(minutes))
    page.click("form.row button[type=submit]")
    page.wait_for_selector("#round-left[data-remaining-ms]")


def standalone_pick(page, url, search, infraction, player, ruleset="dci-upg", level="competitive"):
    """A phone using `ruleset` on its own, its Python ready, on the Penalty screen with
    `infraction` and the player typed (see pick)."""
    standalone(page, url, ruleset, level)
    wait_python(page)
    pick(page, search, infraction, player)


def pick(page, search, infraction, player):
    """On the Penalty screen: search, pick `infraction` and type the player's name."""
    page.goto(page.url.split("#")[0] + "#/penalty")
    page.fill("#pen-search", search)
    page.click(f"[data-infraction={infraction}]")
    page.fill("#pen-player", player)


@contextlib.contextmanager
def judge_phone(browser, server, event, judge, route, ready, size=PHONE, locale="en-US"):
    """A returning phone's browser context (conftest.ReturningPhones) of viewport `size` whose
    browser speaks `locale`, joined to `event` as `judge` and opened at `route` (a hash route,
    "#/time") until selector `ready` shows; yields its page and closes the context after."""
    ctx = browser.returning(server.url, viewport=size, locale=locale)
    try:
        page = ctx.new_page()
        join(page, server, event, judge)
        page.goto(server.url + "/" + route)
        page.wait_for_selector(ready)
        yield page
    finally:
        ctx.close()


def joined_phones(browser, server, event, *judges):
    """A returning phone's browser context per judge, its page joined to `event` as that judge:
    [(context, page)], in the order given. Close the contexts when done."""
    out = []
    for judge in judges:
        ctx = browser.returning(server.url)
        out.append((ctx, ctx.new_page()))
        join(out[-1][1], server, event, judge)
    return out


AXE = ROOT / "pwa" / "node_modules" / "axe-core" / "axe.min.js"

# Every rule axe runs by default, and two it leaves off: a control's name holds its visible
# words (label-content-name-mismatch) and targets of at least 24 px (target-size).
AXE_RUN = """async () => {
  const result = await window.axe.run(document, { resultTypes: ["violations"], rules: {
    "label-content-name-mismatch": { enabled: true }, "target-size": { enabled: true } } });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
}"""


def axe_violations(page):
    """axe-core's violations on what `page` shows now: [{id, impact, targets}] (axe is added
    to the page once per load)."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(AXE_RUN)


def use_scheme(page, scheme):
    """Make the system colour scheme `scheme` ("light" or "dark") and wait until the app
    follows it (the theme on <html>)."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=scheme)
