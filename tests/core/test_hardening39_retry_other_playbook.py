"""`spec-debug run B.yaml --retry-failed RUN_DIR` where RUN_DIR is a run of playbook A.

A's failed hosts are run with B, as Ansible's `--limit @site.retry` runs with any playbook:
that can be meant (a deeper check on the hosts the smoke test failed), so it is not refused.
But a mistyped playbook ran there without a word. Now a one-line notice on stderr names both;
the same file, edited in place (a raised timeout) or copied unchanged, says nothing. Through
the real CLI on --host local.
"""

from __future__ import annotations

import shutil

from tests.conftest import only_run, run_cli

SMOKE = "name: smoke\nsteps:\n  - id: disk\n    run: exit 1\n"
DEEP = "name: deep\nsteps:\n  - id: nvidia\n    run: echo deep ran\n"


def _failed_smoke_run(tmp_path):
    smoke = tmp_path / "smoke.yaml"
    smoke.write_text(SMOKE, encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(smoke), "--host", "local", "--out", str(out))
    assert first.code == 1, first.stderr
    return smoke, only_run(out)[0]


def _retry(tmp_path, playbook, run_dir):
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--out", str(again), "--retry-failed", str(run_dir))
    assert "Traceback" not in result.stderr, result.stderr
    return result, only_run(again)[1]


def _notices(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("notice:")]


def test_a_retry_with_another_playbook_names_both(tmp_path):
    smoke, run_dir = _failed_smoke_run(tmp_path)
    deep = tmp_path / "deep.yaml"
    deep.write_text(DEEP, encoding="utf-8")
    result, again = _retry(tmp_path, deep, run_dir)
    assert result.code == 0, result.stderr  # not refused: the failed host ran the other playbook
    assert [(s["host"], s["id"], s["status"]) for s in again["steps"]] == [("local", "nvidia", "passed")]
    assert again["playbook"]["name"] == "deep"
    (notice,) = _notices(result.stderr)
    assert f"--retry-failed {run_dir} was a run of playbook 'smoke' ({smoke})" in notice, notice
    assert f"this run is playbook 'deep' ({deep}) on its failed hosts" in notice, notice


def test_the_same_playbook_edited_or_copied_says_nothing(tmp_path):
    smoke, run_dir = _failed_smoke_run(tmp_path)
    copy = tmp_path / "copy" / "smoke.yaml"
    copy.parent.mkdir()
    shutil.copy(smoke, copy)
    result, _ = _retry(tmp_path, copy, run_dir)
    assert _notices(result.stderr) == [], result.stderr
    smoke.write_text(SMOKE.replace("exit 1", "exit 0"), encoding="utf-8")  # the fix, in place
    result, again = _retry(tmp_path / "copy", smoke, run_dir)
    assert _notices(result.stderr) == [], result.stderr
    assert [s["status"] for s in again["steps"]] == ["passed"]
