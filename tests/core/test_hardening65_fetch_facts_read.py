"""A fetch step's facts (fetched, fetch_skipped, fetch_cut, ...) are kept in its own step record
(runner/engine.py, _fetch), read as steps.ID.facts.NAME; they are not merged into the host's
facts as a capture's are. `expect: [{that: facts.fetched | length > 0}]` after a fetch validated
ok and failed the step on every host with "facts.fetched is not set ... (the 1 step before it
passed without setting it: check the name)", though the name was right. Such a read is now
refused where it is written, naming what to write; written so, it runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: logs
steps:
  - id: server_log
    fetch: {{src: {src}, dest: logs}}
  - id: copied
    run: echo copied
    expect:
      - that: {that}
        finding: {{code: SD901, severity: warning, title: {title}}}
"""


def _write(tmp_path: Path, that: str, title: str = "no log") -> Path:
    log = tmp_path / "server.log"
    log.write_text("hello\n", encoding="utf-8")
    playbook = tmp_path / "logs.yaml"
    playbook.write_text(PLAYBOOK.format(src=json.dumps(str(log)), that=json.dumps(that), title=json.dumps(title)),
                        encoding="utf-8")
    return playbook


@pytest.mark.parametrize(("that", "title", "where", "field"), [
    ("facts.fetched | length > 0", "no log", "8:15", "that:"),
    ("true", "{{ facts.fetch_skipped }} skipped", "9:58", "the title of the finding"),
])
def test_a_fetch_fact_read_as_a_host_fact_is_refused_with_the_step_record(
        tmp_path: Path, that: str, title: str, where: str, field: str) -> None:
    playbook = _write(tmp_path, that, title)
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    name = "fetched" if "fetched" in that else "fetch_skipped"
    first, hint = validated.stderr.splitlines()[:2]
    assert first.startswith(f"error: {playbook}:{where}: step 'copied' reads facts.{name} in {field}"), first
    assert "a fetch step keeps" in first and "not among the host's facts" in first, first
    assert hint == f"  hint: write steps.server_log.facts.{name}"


def test_written_as_the_hint_says_it_runs(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "steps.server_log.facts.fetched | length > 0")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["passed", "passed"]
