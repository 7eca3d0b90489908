"""`when: steps.logs.stdout is search('Out of memory')`: Ansible's string, version and path tests
(docs.ansible.com, playbooks_tests: `result.stdout is search(...)`, `url is match(...)`, `is
version(...)`, `is directory`) are the usual way to test output there. Jinja has none of them:
the load error said "No test named 'search'" and nothing of what to write instead."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = """name: p
vars:
  model_dir: /data/model
steps:
  - id: logs
    run: journalctl -u vllm -n 200
  - id: oom
    when: "{when}"
    run: nvidia-smi
"""


@pytest.mark.parametrize("when, fix", [
    ("steps.logs.stdout is search('Out of memory')", "write 'Out of memory' in steps.logs.stdout"),
    ("steps.logs.stdout is match('CUDA')", "write steps.logs.stdout.startswith('CUDA')"),
    ("steps.logs.stdout is not regex('OOM|Xid [0-9]+')", "give the step expect: [{matches: 'OOM|Xid [0-9]+'}]"),
    ("steps.logs.stdout.split() is contains('Xid')", "write 'Xid' in the text"),
    ("steps.logs.stdout is version('0.6', '>=')", "capture the version's parts as numbers"),
    ("model_dir is directory", "test the path in the step's command (run: test -e PATH)"),
])
def test_an_ansible_test_names_what_to_write_here(when, fix):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(when=when), "p.yaml")
    error = raised.value
    assert error.line == 8 and "(an Ansible test): " in error.message and fix in error.message, error


@pytest.mark.parametrize("when", ["'Out of memory' in steps.logs.stdout", "steps.logs.stdout.startswith('CUDA')"])
def test_the_fixes_load(when):
    assert load_playbook_text(PLAYBOOK.format(when=when), "p.yaml").steps[1].when == when
