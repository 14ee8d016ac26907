"""Browser automation (Selenium, Playwright). A click or a submit on a live page can send a form,
place an order or delete something: an effect. Navigation (`get`, `goto`) is a GET, typing into a
field (`send_keys`, `fill`) changes nothing until something submits it: reads. A screenshot or PDF
saved to a path is a file write; one returned as bytes is not (`check="save_to"`)."""

from __future__ import annotations

from .rows import Row, methods

_SELENIUM = ("selenium.webdriver.Chrome selenium.webdriver.Firefox selenium.webdriver.Edge selenium.webdriver.Safari "
             "selenium.webdriver.Remote selenium.webdriver.ChromiumEdge undetected_chromedriver.Chrome")
_PW_SYNC = "playwright.sync_api.sync_playwright"
_PW_ASYNC = "playwright.async_api.async_playwright"
_PW_ACTIONS = "click dblclick tap"

ROWS: tuple[Row, ...] = (
    *methods(_SELENIUM, "click submit", "{name} (browser action)", True, "browser"),
    *methods(_SELENIUM, "save_screenshot get_screenshot_as_file", "{name} (image file)", True, "file", "save_to"),
    *methods(_PW_SYNC, _PW_ACTIONS, "{name} (browser action)", True, "browser"),
    *methods(_PW_ASYNC, _PW_ACTIONS, "{name} (browser action)", False, "browser"),
    *methods(_PW_SYNC, "screenshot pdf", "{name} (file)", True, "file", "save_to"),
    *methods(_PW_ASYNC, "screenshot pdf", "{name} (file)", False, "file", "save_to"),
)
