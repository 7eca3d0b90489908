"""A threshold var written quoted, compared with a float capture.

docs/playbooks.md's own example quotes values (`port: "30000"`), so a new engineer writes
`min_accept_len: "2.0"` and `that: facts.accept_len >= min_accept_len`. The step errored with
"TypeError: '>=' not supported between instances of 'float' and 'str'", which named neither the
value nor the fix (and with `--var min_accept_len=2.0`, typed as a number, it worked: the
default alone was text). The message now names the text value and the comparison that works,
and that comparison runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PLAYBOOK = """\
name: accept
vars:
  min_accept_len: "2.0"
steps:
  - id: accept
    run: 'echo "[TP0] Decode batch. accept len: 1.52, gen throughput (token/s): 54.80"'
    capture:
      - regex: 'accept len: (?P<accept_len>[0-9.]+)'
        type: float
    expect:
      - that: {that}
        finding: SD502
"""


def _run(tmp_path, that: str) -> tuple[int, dict]:
    (tmp_path / "accept.yaml").write_text(PLAYBOOK.format(that=that))
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "accept.yaml", "--host", "local", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    record = json.loads(next(tmp_path.glob("runs/*/run.json")).read_text())
    return proc.returncode, record


def test_a_quoted_number_var_is_named_with_the_comparison_to_write(tmp_path):
    _, record = _run(tmp_path, "facts.accept_len >= min_accept_len")
    step = record["steps"][0]
    assert step["status"] == "error"
    assert ("min_accept_len is the text '2.0', not a number; compare it as one: (min_accept_len | float)"
            in step["message"]), step["message"]
    assert "TypeError" not in step["message"]


def test_the_comparison_it_names_finds_the_low_accept_length(tmp_path):
    code, record = _run(tmp_path, "facts.accept_len >= (min_accept_len | float)")
    assert record["steps"][0]["status"] == "failed"
    assert [f["code"] for f in record["findings"]] == ["SD502"] and code == 1
