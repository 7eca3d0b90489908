"""A `that:` comparing a fact that holds a word with a number (`model=llama` read by a regex,
`that: facts.model > 3`; a benchmark that printed `tps=n/a`) failed as SD003 "expression
'facts.model > 3' failed: TypeError: '>' not supported between instances of 'str' and 'int'",
naming neither the fact nor what it held, and its fix was SD003's generic one. It now names the
fact and its text, and the fix says to check the output and capture the number only. With two
texts in one expression it cannot tell which was compared: the TypeError alone, as before.
Through the real CLI, real local steps; and evaluate() itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from spec_debug.errors import TemplateError
from spec_debug.playbook.templating import TemplateSite, evaluate

PLAYBOOK = r'''name: text_check
steps:
  - id: bench
    run: echo "tps=n/a"
    capture:
      - regex: 'tps=(?P<tps>\S+)'
    expect:
      - that: facts.tps > 80
'''


def test_a_word_compared_with_a_number_names_the_fact_and_its_text(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--out", "runs", "--json"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    (finding,) = json.loads(proc.stdout)["findings"]
    assert finding["evidence"] == [
        "step 'bench', expect.that: expression 'facts.tps > 80' failed: facts.tps is the text 'n/a', not a number "
        "(TypeError: '>' not supported between instances of 'str' and 'int')"]
    assert finding["remediation"].startswith(
        "Check what the step printed where facts.tps was read; to compare numbers, capture the number only "
        "(a regex group such as (?P<name>[0-9.]+), type: float). ")


def _failure(expression: str, context: dict) -> str:
    with pytest.raises(TemplateError) as raised:
        evaluate(expression, context, TemplateSite(step="s", field="expect.that"))
    return raised.value.message


def test_two_texts_in_the_expression_keep_the_plain_type_error():
    said = _failure("facts.gpu == 'a100' and facts.tps > 80", {"facts": {"gpu": "a100", "tps": "n/a"}, "vars": {}})
    assert said.endswith("failed: TypeError: '>' not supported between instances of 'str' and 'int'")


def test_a_long_captured_text_is_quoted_cut():
    said = _failure("facts.line > 3", {"facts": {"line": "x" * 500}, "vars": {}})
    assert f"facts.line is the text {'x' * 80!r}… (500 characters), not a number" in said
