"""A secret holding a `'` (`--var hf_token="it's-hunter2"`) leaked into run.json and the report.
The masking looked for the value as given, after the patterns: `HF_TOKEN=it's-hunter2` was
masked to `HF_TOKEN=***REDACTED***'s-hunter2` (the pattern's value ends at the `'`), and a
templated line holds the value quoted (`'it'"'"'s-hunter2'`, `'it'\\''s-hunter2'`), which the
value as given is not part of. Each place the value can stand is checked in every file of the
run: the command line, each step's command, its output, the report."""

from __future__ import annotations

from pathlib import Path

from spec_debug.playbook import load_playbook
from spec_debug.report import write_reports
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.store import RunStore

SECRET = "it's-$hunter2"

PLAYBOOK = """\
name: quoted-secret
vars:
  hf_token: ""
steps:
  - id: bare
    run: echo {{ hf_token }}
  - id: single
    run: echo 'tok={{ hf_token }}'
  - id: double
    run: 'echo "HF_TOKEN={{ hf_token }}"'
  - id: quoted
    run: export HF_TOKEN={{ hf_token | shell_quote }}; echo "HF_TOKEN=$HF_TOKEN"
  - id: heredoc
    run: |
      cat <<EOF
      HF_TOKEN={{ hf_token }}
      EOF
    expect:
      - that: "hf_token ~ '!' in stdout"
"""


def test_a_secret_with_a_quote_is_masked_wherever_the_run_keeps_it(tmp_path: Path) -> None:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    store = RunStore.create(tmp_path / "runs", "quoted-secret")
    target = HostTarget(name="local", connect=LocalTransport)
    given = ["spec-debug", "run", str(playbook), "--var", f"hf_token={SECRET}"]
    record = Run(load_playbook(playbook), [target], store, {"hf_token": SECRET}, RunOptions(command_line=given)).execute()
    assert [step.exit_code for step in record.steps] == [0] * 5, record.steps
    write_reports(record, store.run_dir)
    kept = {path.name: path.read_text(errors="replace") for path in store.run_dir.rglob("*") if path.is_file()}
    assert "run.json" in kept and any(name.startswith("report") for name in kept), sorted(kept)
    leaks = {name: text[max(0, text.find("hunter2") - 40):text.find("hunter2") + 10]
             for name, text in kept.items() if "hunter2" in text}
    assert leaks == {}
