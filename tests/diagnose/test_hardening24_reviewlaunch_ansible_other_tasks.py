"""Review of the Ansible playbook reader (session 15, commit 83683cc): other tasks' unset vars.

A playbook pins the engine's release in a task above the server's (`pip install
"vllm=={{ vllm_version }}"`, the version set in a group_vars file): that task's unset variable
was reported as the server's ('this Ansible task's command uses {{ vllm_version }}'), and the
server's task below, all its values set by the play, was never read.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

PLAYBOOK = """- hosts: gpu
  vars:
    model: meta-llama/Llama-3.1-8B-Instruct
  tasks:
    - name: install vLLM at the pinned release
      ansible.builtin.shell: pip install "vllm=={{ vllm_version }}"
    - name: stop the old server
      ansible.builtin.shell: pkill -f "vllm serve {{ old_model }}" || true
    - name: start vLLM
      ansible.builtin.shell: >
        nohup vllm serve {{ model }} --speculative-config
        '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
        > /tmp/vllm.log 2>&1 &
"""


def test_the_servers_task_is_read_past_other_tasks_unset_vars():
    cfg = parse_launch_command(PLAYBOOK)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct" and cfg.num_steps == 3


def test_the_servers_own_unset_var_is_still_said():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(PLAYBOOK.replace("    model: meta-llama/Llama-3.1-8B-Instruct\n", "    port: 8000\n"))
    assert "{{ model }}" in exc.value.message and "vllm_version" not in exc.value.message
