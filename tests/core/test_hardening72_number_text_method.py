"""A `that:` calling a text method on a fact read as a number (`driver=550.54` captured at type
auto is the float 550.54; `that: facts.driver.startswith('550')`) failed as SD003 "undefined
variable in expression ...: 'float object' has no attribute 'startswith'", with the fix "guard it
with 'is defined', or define it under vars:": the fact is defined, and no var fixes it. It now
says the fact is a number with no such method and to capture it with type: str. Through the real
CLI, real local steps; and evaluate() itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from spec_debug.errors import TemplateError
from spec_debug.playbook.templating import TemplateSite, evaluate

PLAYBOOK = r'''name: number_method
steps:
  - id: driver
    run: echo "driver=550.54"
    capture:
      - regex: 'driver=(?P<driver>\S+)'
    expect:
      - that: facts.driver.startswith('550')
  - id: as_text
    run: echo "driver=550.54"
    capture:
      - regex: 'driver=(?P<driver>\S+)'
        type: str
    expect:
      - that: facts.driver.startswith('550')
'''


def test_a_text_method_on_a_number_fact_says_to_capture_it_as_text(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--out", "runs", "--json"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert [s["status"] for s in record["steps"]] == ["error", "passed"]
    (finding,) = record["findings"]
    assert finding["evidence"] == [
        "step 'driver', expect.that: expression \"facts.driver.startswith('550')\" failed: facts.driver is the number "
        "550.54, which has no .startswith(): keep it text where it is captured (type: str)"]
    assert finding["remediation"].startswith(
        "Capture it with type: str; (facts.driver | string).startswith(...) reads the number as written back (550.10 as 550.1). ")


def test_a_method_no_text_has_keeps_the_undefined_message():
    with pytest.raises(TemplateError) as raised:
        evaluate("facts.n.nope()", {"facts": {"n": 3}, "vars": {}}, TemplateSite(step="s", field="expect.that"))
    assert raised.value.message == "step 's', expect.that: undefined variable in expression 'facts.n.nope()': 'int object' has no attribute 'nope'"
