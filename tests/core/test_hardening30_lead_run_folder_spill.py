"""Round 30 (lead, after the runner review): a run folder removed while a step runs, where the
step's output spills to artifacts/. The spill made the run folder again (mkdir parents=True),
so the run ended PASSED with a record and an artifact in a folder that had lost everything
written before: no word that anything was removed. Now the spill does not make the run folder
again, and the run ends with the one-line "was removed while the run went on" error."""

from __future__ import annotations

from tests.conftest import run_cli


def test_a_spill_does_not_make_a_removed_run_folder_again(tmp_path, write_playbook):
    out = tmp_path / "runs"
    playbook = write_playbook(
        f"""
name: removed
steps:
  - id: cleanup
    run: |
      rm -rf '{out}'/*
      seq 1 200000
  - id: after
    run: echo after
"""
    )
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    assert "Traceback (most" not in result.stderr, result.stderr
    assert result.code == 3, (result.stdout, result.stderr)
    assert "was removed while the run went on: nothing more can be recorded" in result.stderr
    assert list(out.iterdir()) == []  # not made again, half
