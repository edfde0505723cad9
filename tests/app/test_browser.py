"""One real-browser run: Debian's headless Chromium (via Playwright, no browser download) opens the
app served by `streamlit run` and plays the review as a player would: the sample photo, a card
picked by tapping the photo, a misread fixed by tapping its chip, the totals; and the same on a
390 px wide phone, where the seats must come in table order.

    pytest -m browser tests/app/test_browser.py            # screenshot in pytest's tmp dir
    SHISANSHUI_SCREENSHOT=docs/screenshot.png pytest -m browser tests/app/test_browser.py
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
EXPECTED = {"东 East": "+8", "南 South": "+4", "西 West": "+6", "北 North": "-18"}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium package"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """`streamlit run app.py` on a free port with its own ledger; yields the URL."""
    port = free_port()
    env = {**os.environ, "SHISANSHUI_LEDGER": str(tmp_path / "ledger.sqlite3"), "PYTHONUNBUFFERED": "1"}
    log = (tmp_path / "streamlit.log").open("w")
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
        "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited: {(tmp_path / 'streamlit.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail("streamlit did not start within 60 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def launch(p: Any, width: int) -> tuple[Any, Any]:
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    page = browser.new_page(viewport={"width": width, "height": 900})
    return browser, page


def take_the_sample(page: Any, server: str) -> None:
    page.goto(server, wait_until="domcontentloaded")
    page.get_by_role("button", name="Try the sample photo").click(timeout=60_000)
    page.get_by_text("Totals").first.wait_for(timeout=90_000)
    quiet(page)


def quiet(page: Any) -> None:
    """Wait until the page has finished its rerun (Streamlit marks what it is redrawing stale)."""
    page.wait_for_timeout(300)
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=60_000)
    page.wait_for_timeout(300)


def totals(page: Any) -> dict[str, str]:
    """Each player's total as the page shows it, once every player's metric is drawn (on a loaded
    machine the metrics appear one by one)."""
    metrics = page.locator('[data-testid="stMetric"]')
    metrics.first.wait_for(timeout=60_000)
    deadline = time.monotonic() + 30
    while True:
        seen: dict[str, str] = {}
        for m in metrics.all():
            label = m.locator('[data-testid="stMetricLabel"]').inner_text().strip()
            value = m.locator('[data-testid="stMetricValue"]').inner_text().strip()
            seen.setdefault(label, value)
        if all(k in seen for k in EXPECTED) or time.monotonic() > deadline:
            return {k: seen.get(k, "") for k in EXPECTED}
        page.wait_for_timeout(300)


def settled(page: Any) -> dict[str, str]:
    """The totals once the page has re-scored (a rerun is in flight for a moment after a tap)."""
    quiet(page)
    return totals(page)


def chip(page: Any, prefix: str) -> Any:
    return page.locator(f'[class*="st-key-{prefix}"] button:visible').first


def selected(page: Any, key_prefix: str) -> bool:
    """The chip is drawn as the selected card (the photo's frame colour round it)."""
    shadow = chip(page, key_prefix).evaluate("b => getComputedStyle(b).boxShadow")
    return "255, 0, 200" in shadow


def tap_photo(page: Any, x: float, y: float) -> None:
    """Tap the photo at (x, y) in the sample's own pixels (1600 x 1200)."""
    frame = page.frame_locator('iframe[title*="streamlit_image_coordinates"]')
    img = frame.locator("img").first
    img.wait_for(timeout=30_000)
    box = img.bounding_box()
    img.click(position={"x": x * box["width"] / 1600, "y": y * box["height"] / 1200})


#: East's head, first card (Q♠): the sample seats the upright hand at the bottom centre, and the
#: index of a card is its top-left corner (tests/app/make_sample.py).
EAST_HEAD_FIRST = (714.0, 794.0)


def test_sample_photo_in_a_real_browser(server: str, tmp_path: Path) -> None:
    """The sample read, a card checked by tapping the photo, a misread fixed with two taps on its
    chip, the totals checked; the screenshot shows a chip's alternatives open."""
    playwright = pytest.importorskip("playwright.sync_api")
    shot = tmp_path / "screenshot.png"
    with playwright.sync_playwright() as p:
        browser, page = launch(p, 1280)
        try:
            take_the_sample(page, server)
            assert totals(page) == EXPECTED  # the shipped model reads the sample exactly
            # Tap a card on the photo: its chip in the review is selected.
            tap_photo(page, *EAST_HEAD_FIRST)
            page.wait_for_function(
                "() => [...document.querySelectorAll('style')]"
                ".some(s => s.textContent.includes('chip_0_head_0_Qs'))",
                timeout=30_000,
            )
            assert selected(page, "chip_0_head_0_Qs")
            assert page.get_by_text("Picked Q♠ (东 East, 头道 head)").count() == 1
            # A misread, as the reader might make it: North's 8♠ as 8♣ (typed through the row's editor).
            chip(page, "edit_3_head").click()  # ⌨️: the row's text field opens under it
            box = page.locator(".st-key-txt_3_head input").first
            box.fill("8c 5s 4h")
            box.press("Enter")
            page.get_by_text("cannot be settled").first.wait_for(timeout=30_000)
            chip(page, "edit_3_head").click()  # and closes again
            quiet(page)
            # Fix it by tapping the card: the deck's one unseen card is offered; one tap takes it.
            chip(page, "chip_3_head_0_8c").click()
            page.locator('[class*="st-key-alt_3_head_0_8s"] button').first.click(timeout=30_000)
            assert settled(page) == EXPECTED
            table = page.locator('[data-testid="stTable"]').first
            for name, total in EXPECTED.items():
                cells = table.locator("tbody tr", has_text=name).first.locator("td").all_inner_texts()
                assert cells and cells[-1].strip() == total, (name, cells)
            assert page.locator('[data-testid="stException"]').count() == 0
            # The screenshot: the whole page, with one chip's alternatives open.
            height = page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain] *')]"
                ".slice(0, 6000).map(e => e.scrollHeight))"
            )
            page.set_viewport_size({"width": 1280, "height": min(int(height) + 40, 6000)})
            quiet(page)
            chip(page, "chip_2_head_1_6c").click()  # West's 6♣ as read: 6♠ is the reader's next guess
            page.locator('[class*="st-key-alt_2_head_1_"] button').first.wait_for(timeout=30_000)
            page.wait_for_timeout(800)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
    target = os.environ.get("SHISANSHUI_SCREENSHOT")
    if target:
        shutil.copyfile(shot, ROOT / target if not os.path.isabs(target) else target)


def test_a_phone_sees_the_seats_in_table_order(server: str) -> None:
    """390 px wide: seats one under the other in table order, each row one line of chips, and the
    totals one tap away from the top of the review."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser, page = launch(p, 390)
        try:
            take_the_sample(page, server)
            tops = [page.locator(f".st-key-seat_{i}").first.bounding_box()["y"] for i in range(4)]
            assert tops == sorted(tops), tops  # East, South, West, North: the table's order
            names = [page.locator(f".st-key-seat_{i} strong").first.inner_text() for i in range(4)]
            assert names == list(EXPECTED), names
            for i in range(4):
                for row in ("head", "middle", "tail"):
                    chips = page.locator(f'.st-key-row_{i}_{row} [class*="st-key-chip_"]').all()
                    boxes = [c.bounding_box() for c in chips]
                    ys = {round(b["y"]) for b in boxes}
                    assert len(chips) == (3 if row == "head" else 5), (i, row, len(chips))
                    assert max(ys) - min(ys) <= 2, (i, row, ys)  # one line
                    right = max(b["x"] + b["width"] for b in boxes)
                    assert right <= 390, (i, row, right)  # no chip off the screen
            assert totals(page) == EXPECTED
            page.get_by_role("link", name="Totals and record").first.click()
            page.wait_for_timeout(1000)
            record = page.locator(".st-key-record button").first.bounding_box()
            assert record is not None and 0 <= record["y"] <= 900, record  # the record button is on screen
            assert page.locator('[data-testid="stException"]').count() == 0
        finally:
            browser.close()
