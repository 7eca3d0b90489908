"""Every bad playbook error carries a fix hint, not only file:line:column (hardening round, runner).

Three messages came with no hint at all: a duplicate key (PyYAML's SafeLoader silently keeps the
last one, so the author does not know the first is there), an alias to an anchor nobody defined
(the fallback "check indentation and quoting" points at the wrong thing), and a step with no
action (only id/title)."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

CASES = {
    "duplicate_run": ("name: x\nsteps:\n  - id: a\n    run: echo 1\n    run: echo 2\n",
                      (5, 5), ["line 4", "&&"]),
    "duplicate_other_key": ("name: x\nsteps:\n  - id: a\n    title: one\n    run: echo\n    title: two\n",
                            (6, 5), ["line 4", "delete one"]),
    "undefined_alias": ("name: x\nsteps:\n  - id: a\n    <<: *defualts\n    run: echo\n",
                        (4, 9), ["&defualts", "anchor"]),
    "step_without_action": ("name: x\nsteps:\n  - id: a\n    run: echo\n  - id: b\n    title: forgot the command\n",
                            (5, 5), ["run:", "probe:", "fetch:"]),
    # `vars:` written as a list, as Ansible's vars_prompt or a GitHub Actions list invites.
    "vars_list_of_names": ("name: x\nvars:\n  - model\n  - port\nsteps:\n  - id: a\n    run: echo\n",
                           (3, 3), ["model: VALUE", "without '- '"]),
    "vars_list_of_pairs": ("name: x\nvars:\n  - model: m1\n  - port: 2\nsteps:\n  - id: a\n    run: echo\n",
                           (3, 3), ["without the '- '", "model: ..."]),
    "with_list": ("name: x\nsteps:\n  - id: a\n    probe: host_info\n    with:\n      - python\n",
                  (6, 7), ["python: VALUE"]),
    # pydantic's own words said what was wrong and nothing about what to write.
    "negative_retries": ("name: x\nsteps:\n  - id: a\n    run: echo\n    retries: -1\n", (5, 14), ["retries: 0"]),
    "on_failure_typo": ("name: x\nsteps:\n  - id: a\n    run: echo\n    on_failure: stp\n", (5, 17), ["on_failure: stop"]),
    "capture_type_word": ("name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - json: a\n        type: integer\n",
                          (7, 15), ["type: int"]),
    "no_steps": ("name: x\nsteps: []\n", (2, 8), ["at least one"]),
    "no_name": ("steps:\n  - id: a\n    run: echo\n", (1, 1), ["add name:"]),
    "fetch_as_text": ("name: x\nsteps:\n  - id: a\n    fetch: /var/log/x.log\n", (4, 12), ["src: /var/log/x.log"]),
    "lower_case_code": ("name: x\nsteps:\n  - id: a\n    run: echo\n    findings:\n      - code: sd101\n        title: t\n",
                        (6, 15), ["code: SD101"]),
    "until_cut_off": ("name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - regex: '(?P<x>\\d+)'\n"
                      "        type: int\n    until: facts.x ==\n", (8, 12), ["ends after '=='"]),
    "when_two_words": ("name: x\nsteps:\n  - id: a\n    run: echo\n    when: yes please\n", (5, 11), ["'please'", "and / or"]),
    "with_on_run_step": ("name: x\nsteps:\n  - id: a\n    run: echo\n    with: {python: python3}\n", (3, 5), ["remove with:"]),
    "regex_without_group": ("name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - regex: 'speed=\\d+'\n",
                            (6, 9), ["(?P<fact>...)", "name: FACT"]),
    # A top-level key kept only for its anchor, merged into steps (compose's x- habit, any name).
    "anchor_holder_key": ("name: x\ndefaults: &d\n  timeout: 5\nsteps:\n  - id: a\n    <<: *d\n    run: echo\n",
                          (2, 1), ["<<: &step_defaults", "where it is first used"]),
    "exit_code_word": ("name: x\nsteps:\n  - id: a\n    run: echo\n    expect:\n      - exit_code: zero\n",
                       (6, 20), ["exit_code: 0"]),
    "timeout_word": ("name: x\nsteps:\n  - id: a\n    run: echo\n    timeout: ten\n", (5, 14), ["in digits"]),
    "broken_regex": ("name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - regex: '(?P<x\\d+)'\n",
                     (6, 9), ["(?P<name>...)"]),
    "title_as_list": ("name: x\nsteps:\n  - id: a\n    title: [one, two]\n    run: echo\n", (4, 12), ["without [ ]"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_has_position_and_fix_hint(case):
    text, (line, column), words = CASES[case]
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "p.yaml")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert error.hint, f"no hint for: {error}"
    for word in words:
        assert word in error.hint, error.hint
