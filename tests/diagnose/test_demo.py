"""`spec-debug demo`: the incident's three bugs on the simulated host, and the fixed setup clean.

Runs the real perf_regression playbook with the local transport on the shipped fixture (a tiny
target and an EAGLE-3 draft trained for it, real hidden states, the recorded command and log).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from spec_debug.demo import run_demo

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"


def run_demo_one_thread(healthy: bool, out: Path):
    """The demo with its probes' torch on one OpenMP thread: two intra-op threads spin-waiting on
    a busy 2-core machine made the layout probe 96 s (28 s CPU) instead of 18 s (6 s CPU), with
    the same scores (as tests/ssh/test_demo_over_ssh.py found over SSH). The probes are
    subprocesses of the local transport: they inherit this environment."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OMP_NUM_THREADS", "1")
        return run_demo(healthy, out)


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    return run_demo_one_thread(False, tmp_path_factory.mktemp("broken"))


@pytest.fixture(scope="module")
def healthy(tmp_path_factory):
    return run_demo_one_thread(True, tmp_path_factory.mktemp("healthy"))


def errors(result):
    return Counter(f.code for f in result.record.findings if f.severity == "error")


def test_fixture_is_small_and_self_describing():
    total = sum(p.stat().st_size for p in DEMO.rglob("*") if p.is_file())
    assert total < 3_000_000
    meta = json.loads((DEMO / "demo.json").read_text())
    assert meta["broken"]["served_layer_ids"] != meta["trained_aux_layer_ids"]
    assert meta["healthy"]["served_layer_ids"] == meta["trained_aux_layer_ids"]
    assert meta["broken"]["tok_s"] < meta["baseline_tok_s"] < meta["healthy"]["tok_s"]


def test_broken_demo_reports_the_three_root_causes_once_each(broken):
    assert broken.record.status == "failed"
    # one error per root cause: num-steps 1, served layers != trained, slower than baseline
    assert errors(broken) == Counter({"SD101": 1, "SD201": 1, "SD501": 1})
    steps = {s.id: s.status for s in broken.record.steps}
    assert all(status in ("passed", "skipped") for status in steps.values()), steps
    by_code = {f.code: f for f in broken.record.findings}
    assert "[2, 4, 6]" in " ".join(by_code["SD201"].evidence)  # SGLang's default, not [0, 2, 4]
    assert "eagle_config.eagle_aux_hidden_state_layer_ids" in by_code["SD201"].remediation
    # the measured cost of the served layers is a related info finding, not a second error
    assert by_code["SD403"].severity == "info" and "SD201" in by_code["SD403"].evidence[-1]
    # the layout probe scored the served layers [2, 4, 6] on the wide dump and confirms it
    assert by_code["SD402"].severity == "info"
    assert by_code["SD402"].facts["served"] == [2, 4, 6] and by_code["SD402"].facts["best"] != [2, 4, 6]
    assert "SD101, SD201" in by_code["SD501"].remediation


def test_broken_demo_report_reads_as_an_incident_report(broken):
    report = broken.reports["md"].read_text()
    verdict = report.index("Verdict")
    assert verdict < report.index("SD101 —") < report.index("## Steps")
    for text in ("--speculative-num-steps 3", "tok/s", "baseline 90.0", "standalone drafter predicts",
                 "full_accuracy[0]", "embedding output"):
        assert text in report, text
    assert broken.reports["html"].read_text().count("SD501") >= 1


def test_healthy_demo_is_clean(healthy):
    assert healthy.record.status == "passed"
    severities = Counter(f.severity for f in healthy.record.findings)
    assert severities["error"] == 0 and severities["warning"] == 0
    facts = healthy.record.facts["demo-gpu01"]
    assert facts["configs"]["layers"]["served"] == facts["configs"]["layers"]["trained"] == [0, 2, 4]
    model = facts["throughput"]["model"]
    assert model["measured_tok_s"] > model["baseline_tok_s"]


def test_retry_failed_on_a_demo_run_says_to_run_the_demo_again(broken):
    # The demo's host exists only inside `spec-debug demo`: a retry over SSH would fail on its name.
    from typer.testing import CliRunner

    from spec_debug.cli import app

    result = CliRunner().invoke(app, ["run", "perf_regression", "--retry-failed", str(broken.run_dir)])
    assert result.exit_code == 2
    assert "is a demo run" in result.output and "spec-debug demo" in result.output
    assert "Traceback" not in result.output


# The HTML report renders in a real headless browser (Debian's chromium), offline. It looks
# at the broken demo's report above: a second demo run through the CLI cost as much as the
# rest of this file (moved here from tests/onboarding/test_browser_render.py).
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
]


def render_in_chromium(html: Path, tmp_path: Path) -> tuple[str, Path]:
    """The page's DOM after its scripts ran, and a screenshot, from one browser start."""
    png = tmp_path / "report.png"
    dom = subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         f"--screenshot={png}", "--window-size=1200,1400", html.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    return dom.stdout, png


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_demo_report_renders_in_chromium(broken, tmp_path):
    from tests.onboarding.pngcheck import ink_fraction

    dom, png = render_in_chromium(broken.reports["html"], tmp_path)
    assert "<title>spec-debug: perf_regression" in dom
    assert 'id="verdict"' in dom and "SD101" in dom
    assert "SD201" in dom or "SD202" in dom
    assert "<svg" in dom  # the charts are inline SVG: nothing to fetch
    assert png.exists()
    ink, colours = ink_fraction(png)
    assert ink > 0.03, f"the page looks blank ({ink:.3f} of pixels inked)"
    assert colours > 8
