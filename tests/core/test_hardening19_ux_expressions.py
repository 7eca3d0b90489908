"""`when:`/`that:` written as bash, C or JavaScript write conditions.

`when: facts.engine == sglang` was answered "undefined variable 'sglang' ... declare it under
vars:", which turns a typo into a var that is never set; `that: facts.n > 1 && facts.n < 9`,
`exit_code === 0` and `!(exit_code == 1)` got Jinja's "unexpected char '&' at 15" and no way
forward. Each hint now holds the expression to write, and that expression loads."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = """\
name: engine_check
vars:
  port: "30000"
steps:
  - id: engine
    run: echo engine=sglang
    capture: [{{regex: 'engine=(?P<engine>\\w+)'}}]
  - id: flags
    when: {expression}
    run: echo checking
"""


@pytest.mark.parametrize("written, hint_text", [
    ("facts.engine == sglang", "to compare with the text sglang, quote it: facts.engine == 'sglang'"),
    ("host == gpu01 or host == gpu02",
     "to compare with the text gpu01 and gpu02, quote it: host == 'gpu01' or host == 'gpu02'"),
    ("facts.engine is defined && facts.engine == 'sglang'", "write facts.engine is defined and facts.engine == 'sglang'"),
    ("steps.engine.exit_code === 0", "write steps.engine.exit_code == 0"),
    ("'!' not in steps.engine.stdout || !(facts.engine == 'vllm')",
     "write '!' not in steps.engine.stdout or not (facts.engine == 'vllm')"),
])
def test_the_hint_is_an_expression_that_loads(written, hint_text):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(PLAYBOOK.format(expression=f'"{written}"'), "p.yaml")
    error = caught.value
    assert (error.line, error.column) == (9, 11), error.message
    assert (error.hint or "").endswith(hint_text), error.hint
    fixed = hint_text.split("quote it: ", 1)[1] if "quote it" in hint_text else hint_text.removeprefix("write ")
    load_playbook_text(PLAYBOOK.format(expression=f'"{fixed}"'), "p.yaml")


def test_a_word_spelt_like_a_var_is_still_a_typo():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(PLAYBOOK.format(expression="prot == '30000'"), "p.yaml")
    assert caught.value.hint == "did you mean 'port'?"
