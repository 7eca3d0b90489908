"""The HTML report renders in a real headless browser (Debian's chromium), offline."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.onboarding.pngcheck import ink_fraction

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")


def render(html: Path, tmp_path: Path) -> tuple[str, Path]:
    profile = tmp_path / "profile"
    png = tmp_path / "report.png"
    common = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}"]
    dom = subprocess.run([*common, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120)
    subprocess.run([*common, f"--screenshot={png}", "--window-size=1200,1400", html.as_uri()], capture_output=True, timeout=120)
    return dom.stdout, png


def demo_report(tmp_path: Path) -> Path:
    from tests.conftest import only_run, run_cli

    out = tmp_path / "runs"
    result = run_cli("demo", "--out", str(out), timeout=600)
    assert result.code in (0, 1), result.stderr
    run_dir, _ = only_run(out)
    return run_dir / "report.html"


def test_demo_report_renders_in_chromium(tmp_path):
    html = demo_report(tmp_path)
    dom, png = render(html, tmp_path)
    assert "<title>spec-debug: perf_regression" in dom
    assert 'id="verdict"' in dom and "SD101" in dom
    assert "SD201" in dom or "SD202" in dom
    assert "<svg" in dom  # the charts are inline SVG: nothing to fetch
    assert png.exists()
    ink, colours = ink_fraction(png)
    assert ink > 0.03, f"the page looks blank ({ink:.3f} of pixels inked)"
    assert colours > 8
