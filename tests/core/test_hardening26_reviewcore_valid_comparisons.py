"""Valid playbooks the day's load-time refusals turned away (review of b2223c5, cbf5a42, b33c50f).

A refusal at load is for a test that is wrong on every host; these are right where they run:
- `'13' in facts.version`: a substring test. A regex capture of type auto stays text when it
  matches text ((\\S+) of 0.5.13), so the quoted digits are no number compared with text;
- `facts.gid in [0, '0']`, `steps.a.exit_code in [0, '0']`: the number is in the list too;
- `steps.a.status in ['passed', 'ok']`, `== 'failed' or == 'fail'`: the status meant is tested
  beside the Ansible word, which only never matches;
- `'fail' in steps.a.status`, `steps.a.status not in 'failed error timeout'`: substring tests
  a status can pass;
- `expected: 1234e56` (a git short hash YAML 1.1 reads as text) compared == with a text
  capture: text with text, as meant, not a YAML 1.2 number lost.
The truly broken ones stay refused beside them.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook

PLAYBOOK = """name: p
{vars}steps:
  - id: a
    run: echo 'version 0.5.13 id 0 commit 1234e56 n=5'
    capture:
      - regex: 'version (?P<version>\\S+) id (?P<gid>\\S+) commit (?P<commit>\\S+) n=(?P<n>\\d+)'
{type}  - id: b
    run: echo b
    when: {when}
"""


def _write(write_playbook, when: str, vars_: str = "", type_: str = "") -> str:
    return write_playbook(PLAYBOOK.format(vars=vars_, type=type_, when=f'"{when}"'))


@pytest.mark.parametrize("when, vars_, type_", [
    ("'13' in facts.version", "", ""),
    ("'5' not in facts.version", "", ""),
    ("facts.gid in [0, '0']", "", ""),
    ("steps.a.exit_code in [0, '0'] and 'ok' in steps.a.stdout", "", ""),
    ("steps.a.status in ['passed', 'ok']", "", ""),
    ("steps.a.status == 'failed' or steps.a.status == 'fail'", "", ""),
    ("'fail' in steps.a.status", "", ""),
    ("steps.a.status not in 'failed error timeout'", "", ""),
    ("facts.commit == expected", "vars:\n  expected: 1234e56\n", "        type: str\n"),
    ("steps.a.stdout | trim != expected", "vars:\n  expected: 1234e56\n", ""),
])
def test_valid_comparisons_load(write_playbook, when, vars_, type_):
    assert load_playbook(_write(write_playbook, when, vars_, type_)).playbook.steps[1].when == when


@pytest.mark.parametrize("when, vars_, said", [
    ("facts.gid in ['0', 'none']", "", "compares facts.gid, a number once captured, with the text '0'"),
    ("facts.n >= '5'", "", "compares facts.n, a number once captured, with the text '5'"),
    ("steps.a.exit_code in [0, '1']", "", "compares steps.a.exit_code, a number, with the text '1'"),
    ("steps.a.status in ['pass', 'skipped']", "", "compares steps.a.status with 'pass'"),
    ("'ok' in steps.a.status", "", "compares steps.a.status with 'ok'"),
    ("steps.a.status not in 'fail'", "", "compares steps.a.status with 'fail'"),
    ("facts.n == expected", "vars:\n  expected: 1e3\n", "var 'expected' is written 1e3"),
    ("facts.n > expected", "vars:\n  expected: 1234e56\n", "var 'expected' is written 1234e56"),
])
def test_tests_wrong_on_every_host_stay_refused(write_playbook, when, vars_, said):
    with pytest.raises(PlaybookError) as raised:
        load_playbook(_write(write_playbook, when, vars_))
    assert said in raised.value.message, raised.value
