"""A YAML 1.2 number past what a float holds (1e400) in a var: no traceback.

b33c50f's number_meant spelt the number a YAML 1.1 text like 1e3 means; for 1e400 the float is
inf, f"{inf:e}" has no 'e', and `playbooks validate` ended in a ValueError traceback. Such a var
now loads as the text it is (a run says SD003 where it is compared, as before b33c50f), and a
--var-file value of it is refused with one line.
"""

from __future__ import annotations

from spec_debug.playbook.loader import load_playbook
from spec_debug.playbook.number_text import number_given_with_unit, number_meant

PLAYBOOK = """name: p
vars:
  min_tokens: 1e400
steps:
  - id: a
    run: echo 5
    capture:
      - regex: (?P<n>\\d+)
    expect:
      - that: facts.n > min_tokens
"""


def test_a_var_of_1e400_loads_as_text(write_playbook):
    assert load_playbook(write_playbook(PLAYBOOK)).playbook.vars["min_tokens"] == "1e400"
    assert number_meant("1e400") is None and number_meant("-1e400") is None and number_meant("1e3") == "1000"


def test_a_var_file_value_of_1e400_is_refused_in_one_line():
    error = number_given_with_unit("min_tokens", "1e400", 100)
    assert error is not None and "1e400 is larger than any number its checks can compare" in error.message
    assert error.hint == "write a smaller number: --var min_tokens=100"
