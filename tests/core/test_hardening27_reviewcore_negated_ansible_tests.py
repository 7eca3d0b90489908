"""Review of 04742f6 (Ansible's string tests get the line to write here): `when: stdout is not
search('OOM')` was told "write 'OOM' in stdout", the test turned round: written so, the step
ran on exactly the hosts it was meant to skip. The fix keeps the `not`."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = """name: p
steps:
  - id: logs
    run: journalctl -u vllm -n 200
  - id: restart
    when: "{when}"
    run: systemctl restart vllm
"""


@pytest.mark.parametrize("when, fix", [
    ("steps.logs.stdout is not search('Out of memory')", "write 'Out of memory' not in steps.logs.stdout"),
    ("not steps.logs.stdout is match('CUDA')", "write not steps.logs.stdout.startswith('CUDA')"),
    ("steps.logs.stdout.split() is not contains('Xid')", "write 'Xid' not in the text"),
    ("steps.logs.stdout is not regex('Xid [0-9]+')", "the fact is not defined where nothing matched"),
    ("steps.logs.stdout is search('Out of memory')", "write 'Out of memory' in steps.logs.stdout"),
])
def test_a_negated_ansible_test_keeps_its_not_in_the_fix(when, fix):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(when=when), "p.yaml")
    assert fix in raised.value.message, raised.value


def test_the_negated_fixes_load():
    for when in ("'Out of memory' not in steps.logs.stdout", "not steps.logs.stdout.startswith('CUDA')"):
        assert load_playbook_text(PLAYBOOK.format(when=when), "p.yaml").steps[1].when == when
