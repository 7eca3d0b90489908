"""Round 29 masked the secret values before the patterns (a pattern had masked part of
`HF_TOKEN=it's-hunter2` and left the rest). A token that holds a value then lost its shape:
`hf_AbCdEfGhIjKl<value>MnOpQrStUvWxYz0123` became `hf_AbCdEfGhIjKl***REDACTED***MnOp...`, which
the hf_ pattern no longer reads, and 30 of the token's 38 characters stood in run.json and the
report, where the pattern had masked it whole. The value now gives way to a stand-in a token
keeps, and is masked after the patterns."""

from __future__ import annotations

from pathlib import Path

from spec_debug.playbook import load_playbook
from spec_debug.report import write_reports
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.store import RunStore

PLAYBOOK = """\
name: secret-in-token
vars:
  api_key: ""
steps:
  - id: pull
    run: echo "HF_HUB token hf_AbCdEfGhIjKl{{ api_key }}MnOpQrStUvWxYz0123"; echo "it's-{{ api_key }} and ordinary text"
"""


def test_a_token_holding_a_secret_value_is_masked_whole(tmp_path: Path) -> None:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    store = RunStore.create(tmp_path / "runs", "secret-in-token")
    given = ["spec-debug", "run", str(playbook), "--var", "api_key=hunter22"]
    record = Run(load_playbook(playbook), [HostTarget(name="local", connect=LocalTransport)], store,
                 {"api_key": "hunter22"}, RunOptions(command_line=given)).execute()
    assert [step.exit_code for step in record.steps] == [0], record.steps
    write_reports(record, store.run_dir)
    kept = {path.name: path.read_text(errors="replace") for path in store.run_dir.rglob("*") if path.is_file()}
    leaks = {name: [part for part in ("hunter22", "AbCdEfGhIjKl", "MnOpQrStUvWxYz") if part in text]
             for name, text in kept.items()}
    assert {name: parts for name, parts in leaks.items() if parts} == {}
    assert "it's-***REDACTED*** and ordinary text" in kept["run.json"]  # the rest of a line stays
