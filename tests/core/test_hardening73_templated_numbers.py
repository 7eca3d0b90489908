"""A step's number written as a template: `retries: "{{ n }}"`, `timeout: "{{ timeout_s }}"`.

Ansible templates these, so its users write them. The hint said "retries is a number: write it
in digits, without quotes (e.g. retries: 10)"; removing the quotes then made YAML read the braces
as a mapping. Now it says the field is no template (it is read when the playbook loads, before
any var has a value), and for an `exit_code:` how to compare with a var instead.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

HEAD = "name: p\nvars:\n  n: 3\n  want_rc: 0\nsteps:\n  - id: a\n    run: echo hi\n"


@pytest.mark.parametrize("line, where, hint", [
    ('    retries: "{{ n }}"\n', (8, 14),
     "retries is not a template: it is read when the playbook loads, before any var has a value: write the number "
     "itself (e.g. retries: 10)"),
    ('    timeout: "{{ n }}"\n', (8, 14),
     "timeout is not a template: it is read when the playbook loads, before any var has a value: write the number "
     "itself (e.g. timeout: 10)"),
    ('    expect:\n      - exit_code: "{{ want_rc }}"\n', (9, 20),
     "exit_code is not a template: it is read when the playbook loads, before any var has a value: write the number "
     "itself (e.g. exit_code: 0), or compare it in an expectation: that: exit_code == want_rc"),
])
def test_a_templated_number_is_told_it_is_no_template(line, where, hint):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + line, "p.yaml")
    assert (caught.value.line, caught.value.column) == where
    assert caught.value.hint == hint


def test_the_comparison_offered_loads():
    loaded = load_playbook_text(HEAD + "    expect:\n      - that: exit_code == want_rc\n", "p.yaml")
    assert loaded.steps[0].expect[0].that == "exit_code == want_rc"


def test_a_quoted_number_keeps_its_hint():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + '    retries: "3x"\n', "p.yaml")
    assert caught.value.hint == "retries is a number: write it in digits, without quotes (e.g. retries: 10)"
