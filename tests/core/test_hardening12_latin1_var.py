"""A --var holding a byte that is not UTF-8 runs, and its record and reports are written.

A model folder named on an old Latin-1 machine (`/data/modèles`, the è one byte 0xE8) reaches
Python's argv as a lone surrogate (PEP 383). The command ran with the right byte, but pydantic
refused to encode the record: the run ended in a traceback with an empty run folder. Now the
record and the reports show the byte as `\\xe8`, and the step's own output is as it was.
"""

from __future__ import annotations

import json
import os

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: latin1_path
vars:
  model_dir: ""
steps:
  - id: list_model
    requires: [model_dir]
    run: ls {{ model_dir }}
    expect:
      - contains: config.json
  - id: tokenizer
    requires: [model_dir]
    run: test -e {{ model_dir }}/tokenizer.json
    expect:
      - exit_code: 0
        finding:
          code: XX101
          severity: error
          title: "no tokenizer.json in {{ model_dir }}"
"""


def test_a_latin1_folder_name_given_as_a_var(write_playbook, tmp_path):
    folder = os.fsencode(tmp_path) + b"/mod\xe8les"
    os.mkdir(folder)
    open(folder + b"/config.json", "w").close()
    as_argv = os.fsdecode(folder)  # what Python's argv holds for those bytes
    out, summary = tmp_path / "runs", tmp_path / "step_summary.md"
    result = run_cli("run", str(write_playbook(PLAYBOOK)), "--host", "local", "--out", str(out), "--json",
                     "--var", f"model_dir={as_argv}", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.code == 1 and "Traceback" not in result.stderr, result.stderr  # the tokenizer finding
    run_dir, record = only_run(out)
    step = record["steps"][0]
    assert step["status"] == "passed" and step["stdout"] == "config.json\n"
    assert record["vars"]["model_dir"].endswith("/mod\\xe8les")
    assert "mod\\xe8les" in step["command"]
    assert json.loads(result.stdout)["vars"] == record["vars"]
    assert "mod\\xe8les" in (run_dir / "report.md").read_text(encoding="utf-8")
    assert record["findings"][0]["title"].endswith("/mod\\xe8les")
    assert "mod\\udce8les" in summary.read_text(encoding="utf-8")  # GitHub's summary, as Python escapes it
    again = run_cli("report", str(run_dir), "--format", "html")
    assert again.code == 0 and "mod\\xe8les" in again.stdout, again.stderr
