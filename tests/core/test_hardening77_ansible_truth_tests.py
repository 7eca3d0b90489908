"""Ansible's tests of truth and of lists (`is truthy`, `is falsy`, `is any`, `is all`, `is
subset`, `is superset`) are named as Ansible's, with what to write here.

Before: the closest test name was offered: `when: facts.ok is truthy` "did you mean 'true'?",
where Jinja's `true` test is `is True` itself (false for 1, 'yes' or a non-empty list: the step
would never run), `is falsy` 'false', `is superset` 'upper'; `is any`, `is all`, `is subset`
said nothing. Now each says "(an Ansible test): write ..." with the expression that does it here,
its value and argument as written, kept negated where it was written `is not`.
"""

from __future__ import annotations

import pytest

from spec_debug.playbook.templating import parse_template
from tests.conftest import run_cli


@pytest.mark.parametrize("written, said", [
    ("facts.ok is truthy", "No test named 'truthy' (an Ansible test): write facts.ok; a value is true or false by "
                           "itself, and | bool reads a yes/no word"),
    ("facts.ok is not truthy", "No test named 'truthy' (an Ansible test): write not facts.ok; a value is true or "
                               "false by itself, and | bool reads a yes/no word"),
    ("vars.x is falsy", "No test named 'falsy' (an Ansible test): write not vars.x; a value is true or false by "
                        "itself, and | bool reads a yes/no word"),
    ("facts.gpus is any", "No test named 'any' (an Ansible test): write facts.gpus | select | list | length > 0"),
    ("facts.gpus is not all", "No test named 'all' (an Ansible test): write not (facts.gpus | reject | list | "
                              "length == 0)"),
    ("facts.ids is superset(wanted)", "No test named 'superset' (an Ansible test): write wanted | reject('in', "
                                      "facts.ids) | list | length == 0"),
    ("facts.ids is subset(wanted)", "No test named 'subset' (an Ansible test): write facts.ids | reject('in', "
                                    "wanted) | list | length == 0"),
])
def test_an_ansible_truth_test_is_named_with_what_to_write(written, said):
    with pytest.raises(Exception) as caught:
        parse_template("{{ " + written + " }}")
    assert str(caught.value).splitlines()[0] == said


def test_the_written_way_gives_what_the_ansible_test_gives():
    from spec_debug.playbook.templating import TEXT_ENV
    template = TEXT_ENV.from_string("{{ facts.ids | reject('in', wanted) | list | length == 0 }} "
                                    "{{ facts.gpus | select | list | length > 0 }}")
    assert template.render(facts={"ids": [1, 2], "gpus": [0, "", None]}, wanted=[1, 2, 3]) == "True False"


def test_validate_names_the_line(write_playbook):
    playbook = write_playbook("name: truth\nsteps:\n  - id: a\n    run: echo hi\n    when: facts_ok is truthy\n")
    result = run_cli("playbooks", "validate", str(playbook))
    message = " ".join((result.stdout + result.stderr).split())
    assert result.code == 2 and ":5:" in message, message
    assert "No test named 'truthy' (an Ansible test): write facts_ok;" in message, message
    assert "did you mean" not in message, message
