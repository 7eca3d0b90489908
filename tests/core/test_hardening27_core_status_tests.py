"""`when: steps.gpu.status is equalto('pass')`: Jinja's test form of a comparison (jinja2/tests.py
TESTS: equalto, eq, ne, in, ...), as Ansible's docs write it, went past the status-word and
result-number checks that refuse `== 'pass'` (the step was skipped on every host, unsaid)."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = """name: p
steps:
  - id: gpu
    run: nvidia-smi
  - id: fallback
    when: "{when}"
    run: echo cpu
"""


@pytest.mark.parametrize("when, said", [
    ("steps.gpu.status is equalto('pass')", "steps.gpu.status with 'pass'"),
    ("steps.gpu.status is eq 'ok'", "steps.gpu.status with 'ok'"),
    ("not steps.gpu.status is ne('fail')", "steps.gpu.status with 'fail'"),
    ("steps.gpu.status is in ['pased']", "steps.gpu.status with 'pased'"),
    ("steps.gpu.exit_code is eq '0'", "steps.gpu.exit_code, a number, with the text '0'"),
])
def test_a_comparing_test_is_checked_as_the_comparison(when, said):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(when=when), "p.yaml")
    assert raised.value.line == 6 and said in raised.value.message, raised.value


@pytest.mark.parametrize("when", ["steps.gpu.status is equalto('passed')", "steps.gpu.status is in ['passed', 'ok']",
                                  "steps.gpu.exit_code is eq 0", "steps.gpu.status is defined"])
def test_right_tests_load(when):
    assert load_playbook_text(PLAYBOOK.format(when=when), "p.yaml").steps[1].when == when


NUMBER_VAR = """name: p
vars:
  min_tokens: 1e3
steps:
  - id: bench
    run: echo 5
    capture:
      - name: n
        regex: '(\\d+)'
    expect:
      - that: "{that}"
"""


@pytest.mark.parametrize("that", ["facts.n is gt(min_tokens)", "facts.n is ge min_tokens", "facts.n is eq min_tokens"])
def test_a_yaml_11_text_var_a_comparing_test_reads_is_refused(that):
    """`min_tokens: 1e3` is text to YAML 1.1: `facts.n > min_tokens` was refused at load, but
    `facts.n is gt(min_tokens)` loaded and failed on every host."""
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(NUMBER_VAR.format(that=that), "p.yaml")
    assert raised.value.line == 3 and raised.value.hint.endswith("min_tokens: 1000"), raised.value
