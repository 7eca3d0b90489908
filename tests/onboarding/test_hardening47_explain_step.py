"""`spec-debug explain STEP`: the demo prints "passed hidden_layout"; a newcomer types `explain
hidden_layout` and now reads that step's walkthrough (why, what it runs, healthy, failing, its
codes), not an error pointing at the whole playbook."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli


def test_a_shipped_step_is_explained_alone(tmp_path: Path) -> None:
    shown = run_cli("explain", "hidden_layout", cwd=tmp_path)
    assert shown.code == 0, shown.stderr
    text = shown.stdout
    assert text.startswith("# Walkthrough: `perf_regression`, step `hidden_layout`\n")
    assert "the whole walkthrough: `spec-debug explain perf_regression`" in text
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## 5. Hidden-state layout (`hidden_layout`)"]
    assert "> **SD402** (error)" in text and "## Inputs (vars)" not in text


def test_a_step_of_another_playbook_is_explained_from_it(tmp_path: Path) -> None:
    data = json.loads(run_cli("explain", "free_disk", "--json", cwd=tmp_path).stdout)
    assert data["name"] == "host_smoke" and data["only_step"] == "free_disk"
    assert [s["id"] for s in data["steps"]] == ["free_disk"]


def test_a_playbook_file_named_like_a_step_is_still_the_playbook(tmp_path: Path) -> None:
    (tmp_path / "throughput").write_text("name: mine\ndescription: mine\nsteps:\n  - id: a\n    run: echo hi\n",
                                         encoding="utf-8")
    shown = run_cli("explain", "throughput", cwd=tmp_path)
    assert shown.code == 0 and shown.stdout.startswith("# Walkthrough: `mine`\n")


def test_run_of_a_step_name_sends_to_its_explanation(tmp_path: Path) -> None:
    shown = run_cli("run", "hidden_layout", "--host", "local", cwd=tmp_path)
    assert shown.code == 2
    assert "`spec-debug explain hidden_layout` says what it checks and why" in shown.stderr
