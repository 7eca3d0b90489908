"""An Ansible variables file (group_vars/, host_vars/, a role's defaults) pasted as the launch (session 15).

A role keeps the server's flags in a list or string variable (`sglang_args:`) and its other
settings in underscore-named variables (`model_path:`, `tp_size:`), which its template turns into
the command. Such a file was read as an SGLang `--config` YAML: `model_path` became
`--model_path`, refused as 'not an SGLang flag', and the flags in `sglang_args` (a one-token
cap) were never read. Now the flag-list variables are the server's flags, the engine their
names say, the model its model variable.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG_GROUP_VARS = """---
# group_vars/gpu_servers.yml
model_path: meta-llama/Llama-3.1-8B-Instruct
tp_size: 2
mem_fraction_static: 0.8
sglang_port: 30000
draft_path: jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
sglang_args:
  - --speculative-algorithm EAGLE3
  - --speculative-draft-model-path {{ draft_path }}
  - --speculative-num-steps
  - "1"
  - --speculative-eagle-topk 1
  - --speculative-num-draft-tokens 2
"""

VLLM_ROLE_DEFAULTS = """vllm_container_name: vllm-server
vllm_model: meta-llama/Llama-3.1-8B-Instruct
vllm_extra_args: >-
  --max-model-len 8192
  --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}'
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("text, engine, draft", [
    (SGLANG_GROUP_VARS, "sglang", "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"),
    (VLLM_ROLE_DEFAULTS, "vllm", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"),
])
def test_an_ansible_vars_files_flag_list_is_its_servers_flags(text, engine, draft):
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (engine, "meta-llama/Llama-3.1-8B-Instruct", draft)
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_an_ansible_vars_file_is_no_sglang_config_file():
    # (its underscore names are variables of the role, not `--model_path` flags SGLang refuses)
    cfg = parse_launch_command(SGLANG_GROUP_VARS)
    assert not any("_" in word for word in cfg.argv if word.startswith("--"))
    assert cfg.num_steps == 1 and cfg.topk == 1


def test_flags_for_both_engines_say_the_role_chooses():
    text = SGLANG_GROUP_VARS + "vllm_args:\n  - --speculative-config\n  - '{\"method\": \"eagle3\"}'\n"
    with pytest.raises(LaunchParseError, match="both engines"):
        parse_launch_command(text)


def test_an_sglang_config_with_underscore_keys_is_still_refused_as_sglang_refuses_it():
    # (no flag-list value: a --config file, whose `--model_path` SGLang's ConfigArgumentMerger
    # passes on as is: sgl-project/sglang python/sglang/srt/server_args_config_parser.py)
    with pytest.raises(LaunchParseError, match="the key model_path of --config config.yaml becomes --model_path, "
                                               "which is not an SGLang flag"):
        parse_launch_command("model_path: m\nspeculative_num_steps: 1\ntp_size: 2\n")


PLAYBOOK = """---
- name: Start the SGLang server
  hosts: gpu_servers
  become: true
  vars:
    model_path: meta-llama/Llama-3.1-8B-Instruct
    draft_path: jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
    spec_steps: 1
    sglang_port: 30000
  tasks:
    - name: Install sglang
      ansible.builtin.pip:
        name: "sglang[all]==0.5.2"
    - name: Launch the server
      ansible.builtin.shell: >
        nohup python3 -m sglang.launch_server
        --model-path {{ model_path }}
        --speculative-algorithm EAGLE3
        --speculative-draft-model-path {{ draft_path }}
        --speculative-num-steps {{ spec_steps }}
        --speculative-eagle-topk 1
        --speculative-num-draft-tokens {{ spec_steps + 1 }}
        --port {{ sglang_port }} > /var/log/sglang.log 2>&1 &
      async: 10
      poll: 0
"""

VLLM_PLAYBOOK = """- hosts: all
  vars:
    vllm_args:
      - --max-model-len 8192
      - --speculative-config '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}'
  tasks:
    - block:
        - name: serve
          command: "vllm serve meta-llama/Llama-3.1-8B-Instruct {{ vllm_args | join(' ') }}"
          args:
            chdir: /srv
"""


@pytest.mark.parametrize("text, engine", [(PLAYBOOK, "sglang"), (VLLM_PLAYBOOK, "vllm")])
def test_a_playbooks_task_is_its_command_with_the_plays_vars(text, engine):
    # (was: `--speculative-num-steps {{ spec_steps }}` read as is: 'expects an integer, got {{')
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model) == (engine, "meta-llama/Llama-3.1-8B-Instruct")
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_var_the_play_does_not_set_says_so():
    text = PLAYBOOK.replace("    spec_steps: 1\n", "")
    with pytest.raises(LaunchParseError, match=r"\{\{ spec_steps \}\}.*do not set"):
        parse_launch_command(text)
