"""The Event screen's display settings: the colour theme follows the system's scheme until
the judge picks light or dark, and the clock's high contrast large text; both stay across a
reload, and axe finds no violation with them (contrast included)."""

from .helpers import axe_violations, standalone

THEME = "() => document.documentElement.dataset.theme"
CLOCK_SIZE = "() => parseFloat(getComputedStyle(document.querySelector('#round-left')).fontSize)"


def test_theme_follows_the_system_until_picked_and_stays_across_a_reload(context, static_server):
    page = context.new_page()
    page.emulate_media(color_scheme="dark")
    page.goto(static_server.url + "/#/join")
    page.wait_for_selector("#theme-system:checked")
    assert page.evaluate(THEME) == "dark"
    page.emulate_media(color_scheme="light")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    light_paper = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    page.check("#theme-dark")
    assert page.evaluate(THEME) == "dark"
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(17, 20, 24)"
    assert light_paper == "rgb(255, 255, 255)"
    page.reload()
    page.wait_for_selector("#theme-dark:checked")
    # The kept choice wins over the light system scheme after a restart.
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    page.check("#theme-light")
    page.emulate_media(color_scheme="dark")
    page.reload()
    page.wait_for_selector("#theme-light:checked")
    assert page.evaluate(THEME) == "light"
    page.check("#theme-system")
    assert page.evaluate(THEME) == "dark"


def test_high_contrast_clock_stays_across_a_reload_and_passes_axe_in_both_themes(context, static_server):
    page = context.new_page()
    standalone(page, static_server.url, "wotf", "competitive")
    page.goto(static_server.url + "/#/clock")
    page.fill("#local-minutes", "50")
    page.click("#local-minutes ~ button[type=submit]")
    page.wait_for_function("() => document.querySelector('#round-left').dataset.remainingMs")
    standard = page.evaluate(CLOCK_SIZE)
    page.goto(static_server.url + "/#/join")
    page.check("#clock-look-contrast")
    page.check("#theme-dark")
    page.reload()
    page.wait_for_selector("#clock-look-contrast:checked")
    assert page.evaluate("() => document.documentElement.dataset.clock") == "contrast"
    page.goto(static_server.url + "/#/clock")
    page.wait_for_function("() => document.querySelector('#round-left')?.dataset.remainingMs")
    assert page.evaluate(CLOCK_SIZE) > standard * 1.1, (standard, page.evaluate(CLOCK_SIZE))
    assert page.evaluate("() => getComputedStyle(document.querySelector('section.clock')).backgroundColor") \
        == "rgb(0, 0, 0)"
    found = {}
    for theme in ("dark", "light"):
        page.goto(static_server.url + "/#/join")
        page.check(f"#theme-{theme}")
        page.goto(static_server.url + "/#/clock")
        page.wait_for_function("() => document.querySelector('#round-left')?.dataset.remainingMs")
        found[theme] = axe_violations(page)
    assert found == {"dark": [], "light": []}
    # No part of the bigger clock runs past a small phone's edge.
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("() => document.documentElement.scrollWidth") == 320
