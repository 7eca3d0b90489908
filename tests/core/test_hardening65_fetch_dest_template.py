"""A fetch step's `dest:` is a template rendered for each host, as its `src:` is (runner/engine.py,
_fetch), but only `src:` was checked at load: `dest: "logs/{{ hots }}"` passed `playbooks
validate`, and on every host the step failed before copying anything ("fetch.dest: undefined
variable", SD003), the run PASSED with "nothing was checked". The dest is now checked where it is
written; a dest built from the host, an earlier step or a defaulted fact still validates and runs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: logs
vars:
  log_dir: {log_dir}
steps:
  - id: first
    run: echo hi
  - id: server_log
    fetch: {{src: "{{{{ log_dir }}}}/server.log", dest: "{dest}"}}
"""


def _write(tmp_path: Path, dest: str) -> Path:
    log_dir = tmp_path / "logs on host"
    log_dir.mkdir(exist_ok=True)
    (log_dir / "server.log").write_text("decode batch\n", encoding="utf-8")
    playbook = tmp_path / "logs.yaml"
    playbook.write_text(PLAYBOOK.format(log_dir=json.dumps(str(log_dir)), dest=dest), encoding="utf-8")
    return playbook


def test_an_undefined_name_in_a_fetch_dest_is_refused_where_it_is_written(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "logs/{{ hots }}")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    first, hint = validated.stderr.splitlines()[:2]
    assert first == (f"error: {playbook}:8:52: undefined variable 'hots' in step 'server_log' "
                     "(at steps[1].fetch.dest)"), first
    assert hint == "  hint: did you mean 'host'?", hint


def test_a_dest_built_from_the_host_and_an_earlier_step_validates_and_runs(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "logs/{{ host }}/{{ steps.first.status }}")
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    copied = [p.relative_to(run_dir / "artifacts").as_posix() for p in (run_dir / "artifacts").rglob("server.log")]
    assert copied == ["local/logs/local/passed/server.log"], copied
