"""The smallest phones (320 px) in the longest of the app's languages: the screens' bar never
covers the end of a screen, its tabs stay finger-sized, the status bar scrolls away there
(and stays at the top on a 390 px phone), and no infraction's name is broken mid-word to make
room for its category."""

import contextlib

import pytest

from .conftest import PHONE, SMALL_PHONE
from .helpers import judge_phone

# the widest names of the six catalogs (Portuguese and Spanish); English for comparison
LOCALES = ["pt-BR", "es-ES", "en-US"]

LAYOUT = """() => {
  const nav = document.querySelector('#nav').getBoundingClientRect();
  const tabs = [...document.querySelectorAll('#nav a:not([hidden])')].map((a) => a.getBoundingClientRect());
  const last = [...document.querySelectorAll('#main *')].filter((el) => el.getClientRects().length).pop();
  return {navTop: nav.top, navBottom: nav.bottom, height: innerHeight,
          lastBottom: last.getBoundingClientRect().bottom,
          topPosition: getComputedStyle(document.querySelector('.top')).position,
          tabs: tabs.map((r) => [r.width, r.height])};
}"""

# For each infraction button: its name's width, the widest word of the name, and whether the
# category tag sits beside the name or below it.
NAMES = """() => [...document.querySelectorAll('#main .list button.item')].map((button) => {
  const [name, tag] = button.children;
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  button.append(probe);
  const widest = Math.max(...name.textContent.split(/\\s+/).map((word) => {
    probe.textContent = word;
    return probe.getBoundingClientRect().width;
  }));
  probe.remove();
  const n = name.getBoundingClientRect(), t = tag.getBoundingClientRect();
  return {name: name.textContent, width: n.width, widest, beside: Math.abs(t.top - n.top) < n.height,
          below: t.top >= n.bottom - 1, tagFits: tag.scrollWidth <= Math.ceil(t.width) + 1};
})"""


@contextlib.contextmanager
def penalty_screen_end(browser, server, size, locale):
    """A judge's phone of `size` in `locale` on the Penalty screen of a Yu-Gi-Oh! event,
    scrolled to its end; yields the page."""
    event = server.make_event("yugioh", "tier2", round_minutes=45)
    with judge_phone(browser, server, event, "Ana", "#/penalty", "#main .list button.item",
                     size=size, locale=locale) as page:
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function(
            "() => scrollY > 0 && innerHeight + scrollY >= document.documentElement.scrollHeight - 1")
        yield page


@pytest.mark.parametrize("locale", LOCALES)
def test_the_smallest_phone_keeps_every_screen_end_and_every_name_whole(browser, flask_server, locale):
    with penalty_screen_end(browser, flask_server, SMALL_PHONE, locale) as page:
        layout = page.evaluate(LAYOUT)
        # the bar is at the bottom of the screen and the screen's last line ends above it
        assert layout["navBottom"] == pytest.approx(layout["height"], abs=1)
        assert layout["lastBottom"] <= layout["navTop"] + 1
        assert all(w >= 44 and h >= 44 for w, h in layout["tabs"]), layout["tabs"]
        assert layout["topPosition"] == "static"
        names = page.evaluate(NAMES)
        assert len(names) > 10
        for item in names:
            assert item["width"] + 1 >= item["widest"], item
            assert item["beside"] or item["below"], item
            assert item["tagFits"], item


def test_a_phone_of_390_px_keeps_the_status_bar_at_the_top(browser, flask_server):
    with penalty_screen_end(browser, flask_server, PHONE, "pt-BR") as page:
        assert page.evaluate("() => document.querySelector('.top').getBoundingClientRect().top") == 0
        layout = page.evaluate(LAYOUT)
        assert layout["topPosition"] == "sticky"
        assert layout["lastBottom"] <= layout["navTop"] + 1
