"""Steps written with GitHub Actions' and Ansible's keys: each is one error at the key, and the
hint says how to write it here (before, most listed the 19 allowed keys and left the author
to guess that `if:` is `when:` or that `with_items:` has no counterpart)."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


def _error(step_lines: str) -> PlaybookError:
    text = "name: habits\nsteps:\n  - id: first\n    run: echo first\n  - id: gpu\n" + step_lines
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "habits.yaml")
    return caught.value


@pytest.mark.parametrize("lines, key, hint", [
    ("    run: nvidia-smi\n    if: success()\n", "if", "write the condition under when:"),
    ("    run: nvidia-smi -i {{ item }}\n    with_items: [0, 1]\n", "with_items", "for gpu in 0 1 2 3; do"),
    ("    run: nvidia-smi\n    with_dict: {a: 1}\n", "with_dict", "loop in the command"),
    ("    run: nvidia-smi\n    loop: [0, 1]\n", "loop", "loop in the command"),
    ("    run: nvidia-smi\n    continue-on-error: true\n", "continue-on-error", "expect: - exit_code: [0, 1]"),
    ("    run: ls\n    working-directory: /models\n", "working-directory", "run: cd /path && ..."),
    ("    run: nvidia-smi\n    shell: bash\n", "shell", "drop shell:"),
    ("    run: nvidia-smi\n    timeout-minutes: 5\n", "timeout-minutes", "timeout: 300"),
    ("    uses: actions/checkout@v4\n", "uses", "write the commands it stands for under run:"),
    ("    run: nvidia-smi\n    vars: {gpu: 0}\n", "vars", "under the playbook's vars: at the top"),
    ("    run: nvidia-smi\n    description: GPU use\n", "description", "why:"),
])
def test_a_key_from_another_tool_gets_the_way_to_write_it_here(lines, key, hint):
    error = _error(lines)
    assert f"unknown key {key!r}" in error.message and (error.line, error.column) == (7 if key != "uses" else 6, 5)
    assert hint in (error.hint or ""), error.hint
    assert "allowed keys" not in (error.hint or "")


def test_ansible_shell_without_run_keeps_its_hint():
    error = _error("    shell: nvidia-smi\n")
    assert "write the command under run:" in (error.hint or "")


@pytest.mark.parametrize("when, fix", [
    ("steps.first is succeeded", "write steps.first.status == 'passed'"),
    ("steps.first is failed", "write steps.first.status == 'failed'"),
    ("steps.first is skipped", "write steps.first.status == 'skipped'"),
])
def test_ansible_result_tests_name_the_status_to_compare(when, fix):
    error = _error(f"    run: nvidia-smi\n    when: {when}\n")
    assert "(an Ansible test)" in error.message and fix in error.message, error.message
    assert (error.line, error.column) == (7, 11)
