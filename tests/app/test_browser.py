"""One real-browser run: Debian's headless Chromium (via Playwright, no browser download) opens the
app served by `streamlit run`, tries the sample photo, reviews every row against what the photo
really shows (correcting any misread by typing), and must see the sample's totals.

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

import pytest

from tests.app.conftest import ROOT, SAMPLE

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


def test_sample_photo_in_a_real_browser(server: str, tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    shot = tmp_path / "screenshot.png"
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server, wait_until="domcontentloaded")
            page.get_by_role("button", name="Try the sample photo").click(timeout=60_000)
            page.locator('[data-testid="stImage"]').first.wait_for(timeout=60_000)
            # Review as a player would: make every row what the photo really shows. The shipped models
            # read the sample exactly (test_app_flows asserts it), so this types nothing today; it keeps
            # this test about the browser, not about the detector.
            for i, player in enumerate(SAMPLE["players"]):
                for row in ("head", "middle", "tail"):
                    box = page.locator(f".st-key-txt_{i}_{row} input").first
                    if box.input_value().split() != player[row].split():
                        box.fill(player[row])
                        box.press("Enter")
                        page.wait_for_timeout(700)
            metrics = page.locator('[data-testid="stMetric"]')
            page.get_by_text("Totals").first.wait_for(timeout=60_000)
            metrics.first.wait_for(timeout=60_000)
            page.wait_for_timeout(500)
            seen = {}
            for m in metrics.all():
                label = m.locator('[data-testid="stMetricLabel"]').inner_text().strip()
                value = m.locator('[data-testid="stMetricValue"]').inner_text().strip()
                seen.setdefault(label, value)
            assert {k: seen.get(k) for k in EXPECTED} == EXPECTED
            # The score table (pairwise matrix + totals): each player's row ends with the total.
            table = page.locator('[data-testid="stTable"]').first
            for name, total in EXPECTED.items():
                cells = table.locator("tbody tr", has_text=name).first.locator("td").all_inner_texts()
                assert cells and cells[-1].strip() == total, (name, cells)
            assert page.locator('[data-testid="stException"]').count() == 0
            # Every row was reviewed: the reader's notes about what it misread are gone.
            assert page.get_by_text("cards instead of 13").count() == 0
            # Streamlit scrolls inside its own container: grow the window to the content for the shot.
            height = page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain] *')]"
                ".slice(0, 4000).map(e => e.scrollHeight))"
            )
            page.set_viewport_size({"width": 1280, "height": min(int(height) + 40, 6000)})
            page.wait_for_timeout(800)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
    target = os.environ.get("SHISANSHUI_SCREENSHOT")
    if target:
        shutil.copyfile(shot, ROOT / target if not os.path.isabs(target) else target)
