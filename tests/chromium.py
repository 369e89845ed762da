"""The system's Chromium for the browser tests (driven by Playwright; never downloaded)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = next(
    (
        found
        for found in (
            shutil.which("chromium"),
            shutil.which("chromium-browser"),
            "/usr/bin/chromium",
        )
        if found and os.path.exists(found)
    ),
    None,
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 412, "height": 915}

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium found (apt-get install -y chromium): the browser test cannot run",
)


@contextmanager
def launched() -> Iterator[Browser]:
    """The system's Chromium, headless, closed at the end of the block."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
