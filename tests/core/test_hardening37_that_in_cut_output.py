"""`that:` and `until:` expressions over a stream cut by --capture-limit.

`contains`/`not_contains` search the whole stream (the part cut from the record included), but
an expression saw `stdout` as the kept head and tail only: `that: "'CUDA out of memory' not in
stdout"` passed on a log whose OOM line fell in the cut middle, while `not_contains` on the same
step failed. `in` and `not in` now search the whole stream there too.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import only_run

LONG = """\
      seq 1 40000
      echo "{line}"
      seq 1 40000
"""


def _playbook(write_playbook, expect: str, line: str, extra: str = "") -> Path:
    return write_playbook(
        "name: cut\nsteps:\n  - id: s\n    run: |\n" + LONG.format(line=line) + extra + f"    expect:\n      - that: {expect}\n"
    )


def test_not_in_stdout_fails_when_the_line_is_in_the_cut_part(cli, write_playbook, tmp_path: Path) -> None:
    playbook = _playbook(write_playbook, "\"'CUDA out of memory' not in stdout\"", "RuntimeError: CUDA out of memory")
    done = cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--capture-limit", "4096")
    _, record = only_run(tmp_path / "runs")
    step = record["steps"][0]
    assert step["truncated"] is True
    assert "CUDA out of memory" not in step["stdout"]  # the line is in the cut part
    assert step["status"] == "failed", step["expectations"]  # passed before
    assert done.code == 1


def test_in_stdout_holds_when_the_line_is_in_the_cut_part(cli, write_playbook, tmp_path: Path) -> None:
    playbook = _playbook(write_playbook, "\"'server READY' in stdout and 'never printed' not in stdout\"", "server READY")
    done = cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--capture-limit", "4096")
    _, record = only_run(tmp_path / "runs")
    assert record["steps"][0]["status"] == "passed", record["steps"][0]["expectations"]  # failed before
    assert done.code == 0


def test_until_reads_the_cut_part(cli, write_playbook, tmp_path: Path) -> None:
    marker = tmp_path / "second"
    playbook = write_playbook(
        "name: cut\nsteps:\n  - id: wait\n    retries: 2\n    retry_delay: 0\n"
        "    until: \"'ready' in stdout\"\n    run: |\n      seq 1 40000\n"
        f"      if [ -e {marker} ]; then echo ready; else touch {marker}; echo loading; fi\n      seq 1 40000\n"
    )
    cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--capture-limit", "4096")
    _, record = only_run(tmp_path / "runs")
    step = record["steps"][0]
    assert step["status"] == "passed", step  # "until ... was still false after 3 attempt(s)" before
    assert step["attempts"] == 2
