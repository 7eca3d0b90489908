"""`--retry-failed` of a run given a --var holding a byte that is no UTF-8.

A model folder named on a Latin-1 machine (`/data/mod\\xe8les`, the è one byte 0xE8) is recorded
in run.json as the text `\\xe8` (record.shown_surrogate). --retry-failed reused that text as the
value: the retry looked in `mod\\xe8les` (a backslash and three letters), a folder the host does
not have, and failed where the first run had passed. Now the recorded byte is sent back as the
byte, and the retry says so. Through the real CLI on --host local.
"""

from __future__ import annotations

import os

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: latin1_retry
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
          title: "no tokenizer.json"
"""


def test_a_retry_sends_the_recorded_byte_back(write_playbook, tmp_path):
    folder = os.fsencode(tmp_path) + b"/mod\xe8les"
    os.mkdir(folder)
    open(folder + b"/config.json", "w").close()
    playbook, out = write_playbook(PLAYBOOK), tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out),
                    "--var", f"model_dir={os.fsdecode(folder)}")
    assert first.code == 1, first.stderr  # no tokenizer.json yet
    run_dir, record = only_run(out)
    assert record["vars"]["model_dir"].endswith("/mod\\xe8les")
    open(folder + b"/tokenizer.json", "w").close()  # what was missing is fixed
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--out", str(again), "--retry-failed", str(run_dir))
    assert "Traceback" not in result.stderr, result.stderr
    retried = only_run(again)[1]
    assert [(s["id"], s["status"]) for s in retried["steps"]] == [("list_model", "passed"), ("tokenizer", "passed")], result.stderr
    assert retried["findings"] == []
    assert result.code == 0
    assert "model_dir" in result.stderr and "0xe8" in result.stderr  # the reading is said


def test_a_plain_backslash_value_is_reused_as_written(write_playbook, tmp_path):
    # Only \\x80..\\xff is a byte the record shows as text; a value's own \\x41 stays text.
    playbook = write_playbook(PLAYBOOK.replace("ls {{ model_dir }}", "printf '%s\\n' {{ model_dir }}")
                              .replace("contains: config.json", "contains: 'A'"))
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", "model_dir=a\\x41")
    assert first.code == 1, first.stderr
    run_dir, record = only_run(out)
    assert record["vars"]["model_dir"] == "a\\x41"
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--out", str(again), "--retry-failed", str(run_dir))
    retried = only_run(again)[1]
    assert retried["vars"]["model_dir"] == "a\\x41"
    assert "0x" not in result.stderr
