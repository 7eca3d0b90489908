"""A fetch step copies files and runs no command (runner/engine.py, _fetch): it never checked an
`expect:`, captured with `capture:`, raised its `findings:` or repeated itself for `retries:` /
`until:`. They were accepted: `expect: [{contains: hello}]` on a fetch step validated ok and
the step PASSED whatever was copied, a check that could not fail. They are now refused at
their line, with where to check what was copied: a later step reading steps.ID.facts.fetched
(run here: it holds the copied file)."""

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
    {extra}
"""


def _write(tmp_path: Path, extra: str) -> Path:
    log = tmp_path / "server.log"
    log.write_text("hello from the server\n", encoding="utf-8")
    playbook = tmp_path / "logs.yaml"
    playbook.write_text(PLAYBOOK.format(src=json.dumps(str(log)), extra=extra), encoding="utf-8")
    return playbook


@pytest.mark.parametrize(("extra", "key", "said"), [
    ("expect: [{contains: 'Traceback'}]", "expect", "its expectations are never checked"),
    ("capture: [{regex: '(?P<greeting>hello)'}]", "capture", "it captures nothing"),
    ("findings: [{code: SD901, title: no log}]", "findings", "its findings are never raised"),
    ("retries: 3", "retries", "it is not retried"),
    ("until: \"steps.server_log.status == 'passed'\"", "until", "it is not retried"),
])
def test_a_key_a_fetch_step_never_uses_is_refused_at_its_line(tmp_path: Path, extra: str, key: str, said: str) -> None:
    playbook = _write(tmp_path, extra)
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    assert validated.stderr.splitlines()[:2] == [
        f"error: {playbook}:5:5: {key}: does not apply to a fetch step (it copies files and runs no command): "
        f"{said} (at steps[0].{key})",
        '  hint: check what it copied in a later step, e.g. that: "steps.server_log.facts.fetched | length > 0" '
        "(its facts: fetched, fetch_skipped, fetch_cut, fetch_timed_out); or remove the key",
    ]


def test_keys_left_at_their_defaults_still_load(tmp_path: Path) -> None:
    assert run_cli("playbooks", "validate", str(_write(tmp_path, "retries: 0"))).code == 0


def test_the_check_the_hint_gives_sees_the_copied_file(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "timeout: 30\n  - id: copied\n    run: \"true\"\n"
                                "    expect:\n      - that: \"steps.server_log.facts.fetched | length > 0\"")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--json")
    assert result.code == 0, result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [(s["id"], s["status"]) for s in steps] == [("server_log", "passed"), ("copied", "passed")]
    assert steps[0]["facts"]["fetched"] == ["artifacts/local/logs/server.log"]
