"""`spec-debug report` on a run.json written by another spec-debug version.

The incident channel holds a run.json from a colleague whose spec-debug is newer (a step
status "flaky", a severity "critical", a field this version never heard of) or older (fields
added since are missing). A report tool renders what it understands, keeps what it does not
know as text, says so once, and never calls such a run clean. Every record here is derived
from a real run of a real playbook.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug import __version__
from spec_debug.cli import app
from spec_debug.store import load_record
from tests.conftest import run_cli

PLAYBOOK = """\
name: small
steps:
  - id: hello
    run: echo hello
    expect:
      - contains: goodbye
  - id: bye
    run: echo bye
"""


@pytest.fixture(scope="module")
def real_record(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("real")
    (folder / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    assert result.code == 1, result.stderr  # the expectation fails: one error finding
    return json.loads(next((folder / "runs").glob("*/run.json")).read_text())


def report(tmp_path: Path, record: dict, *options: str):
    (tmp_path / "run.json").write_text(json.dumps(record))
    return CliRunner().invoke(app, ["report", str(tmp_path), *options], env={"COLUMNS": "2000"})


def newer(record: dict, change) -> dict:
    changed = copy.deepcopy(record)
    changed["spec_debug_version"] = "9.0.0"
    change(changed)
    return changed


NEWER = {
    # name: (what the newer version wrote, the text the report must show as written)
    "step_status": (lambda r: r["steps"][1].update(status="flaky"), "flaky"),
    "host_status": (lambda r: (r["hosts"][0].update(status="quarantined"), r.update(findings=[])), "quarantined"),
    "run_status": (lambda r: (r.update(status="cancelled"), r.update(findings=[])), "cancelled"),
    "severity": (lambda r: r["findings"][0].update(severity="critical"), "critical"),
}


@pytest.mark.parametrize("case", sorted(NEWER))
@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_a_value_from_a_newer_version_is_shown_as_written_with_one_warning(tmp_path, real_record, case, fmt):
    change, shown = NEWER[case]
    result = report(tmp_path, newer(real_record, change), "--format", fmt)
    assert result.exit_code == 0 and result.exception is None, (repr(result.exception), result.output)
    assert shown in result.stdout
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and repr(shown) in warnings[0] and "spec-debug 9.0.0" in warnings[0], result.stderr
    assert f"this is spec-debug {__version__}" in warnings[0]


@pytest.mark.parametrize("case", sorted(NEWER))
def test_a_run_with_a_value_this_version_does_not_know_is_never_called_clean(tmp_path, real_record, case):
    change, shown = NEWER[case]
    record = newer(real_record, change)
    if case != "severity":
        record["findings"] = []  # else the error finding decides the verdict
    result = report(tmp_path, record)
    verdict = next(line for line in result.stdout.splitlines() if line.startswith("> **Verdict:**"))
    assert "Clean" not in verdict and repr(shown) in verdict, verdict


def test_a_finding_of_an_unknown_severity_is_listed_in_the_markdown_report(tmp_path, real_record):
    """The Markdown report walked error, warning, info: a "critical" finding vanished."""
    record = newer(real_record, lambda r: r["findings"][0].update(severity="critical"))
    result = report(tmp_path, record)
    assert "### Critical (1)" in result.stdout and "#### SD001" in result.stdout, result.stdout


def test_an_unknown_status_badge_is_readable_in_html(tmp_path, real_record):
    """The badges are white text on a colour per status; an unknown one had no colour (white on white)."""
    record = newer(real_record, lambda r: r["steps"][1].update(status="flaky"))
    html = report(tmp_path, record, "--format", "html").stdout
    assert '<span class="badge b-flaky">flaky</span>' in html
    style = html[html.index("<style>"):html.index("</style>")]
    default = next(line for line in style.splitlines() if line.startswith(".badge") and "background" in line)
    assert style.index(default) < style.index(".b-error"), "the default colour must come before the status colours"


def test_fields_from_a_newer_version_are_named_and_kept_in_json(tmp_path, real_record):
    def add_fields(r: dict) -> None:
        r["gpu_inventory"] = {"gpu01": 8}
        r["steps"][0]["retry_policy"] = "exponential"
        r["hosts"][0]["region"] = "eu"
        r["findings"][0]["confidence"] = 0.9
    result = report(tmp_path, newer(real_record, add_fields), "--format", "json")
    assert result.exit_code == 0, result.output
    written = json.loads(result.stdout)
    assert written["gpu_inventory"] == {"gpu01": 8} and written["steps"][0]["retry_policy"] == "exponential"
    assert written["hosts"][0]["region"] == "eu" and written["findings"][0]["confidence"] == 0.9
    warning, = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    for field in ("gpu_inventory", "steps[].retry_policy", "hosts[].region", "findings[].confidence"):
        assert field in warning, warning


def test_a_higher_schema_version_renders_what_validates_and_says_so(tmp_path, real_record):
    result = report(tmp_path, newer(real_record, lambda r: r.update(schema_version=2)))
    assert result.exit_code == 0, result.output
    assert "record schema 2" in result.stderr and "> **Note:**" in result.stdout


def test_the_report_itself_carries_the_note(tmp_path, real_record):
    """A report pasted in the incident channel says it was rendered in part."""
    record = newer(real_record, lambda r: r["steps"][1].update(status="flaky"))
    for fmt in ("md", "html"):
        assert "shown in part" in report(tmp_path, record, "--format", fmt).stdout


def test_a_record_this_version_wrote_gets_no_warning(tmp_path, real_record):
    result = report(tmp_path, real_record)
    assert result.exit_code == 0 and "warning" not in result.stderr and "Note:" not in result.stdout


def test_a_status_that_is_not_text_is_still_damage(tmp_path, real_record):
    record = newer(real_record, lambda r: r["steps"][0].update(status=["passed"]))
    result = report(tmp_path, record)
    assert result.exit_code == 2, result.output
    assert "bad field steps.0.status (Input should be text such as 'passed'" in result.output


def _older(record: dict) -> dict:
    """Every field that has a default dropped, at every level: what a first version wrote."""
    keep = {"run_id", "playbook", "started_at", "steps", "hosts", "findings"}
    old = {k: v for k, v in copy.deepcopy(record).items() if k in keep}
    old["steps"] = [{k: s[k] for k in ("id", "host", "status")} for s in old["steps"]]
    old["hosts"] = [{"name": h["name"]} for h in old["hosts"]]
    old["findings"] = [{k: f[k] for k in ("code", "severity", "title")} for f in old["findings"]]
    return old


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_a_record_from_an_older_version_renders(tmp_path, real_record, fmt):
    result = report(tmp_path, _older(real_record), "--format", fmt)
    assert result.exit_code == 0 and result.exception is None, (repr(result.exception), result.output)
    assert "SD001" in result.stdout and "warning" not in result.stderr


def test_retry_failed_reads_a_newer_record(tmp_path, real_record):
    """--retry-failed reads the previous run.json with the same rules (store.load_record)."""
    record = newer(real_record, lambda r: r["steps"][1].update(status="flaky"))
    (tmp_path / "run.json").write_text(json.dumps(record))
    warnings: list[str] = []
    loaded = load_record(tmp_path, warn=warnings.append)
    assert loaded.steps[1].status == "flaky" and len(warnings) == 1


def test_spec_debug_itself_still_writes_only_the_statuses_it_knows():
    """Reading is lenient; writing is not: a typo in the runner's status is an error at once."""
    from pydantic import ValidationError

    from spec_debug.record import StepRecord

    with pytest.raises(ValidationError, match="Input should be one of 'passed'"):
        StepRecord(id="a", host="local", status="timed_out")
