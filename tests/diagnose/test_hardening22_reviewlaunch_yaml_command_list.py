"""A whole server command pasted as a YAML list (a compose `command:` body) is one argv word per item.

Today's change reads a pasted list of container arguments whose first item is a flag
(`- "--speculative-algorithm"` / `- "EAGLE"`) as argv words. The same list with the program
first (`- python3` / `- -m` / `- sglang.launch_server` ... / `- "3"`, the compose file's
`command:` items; docker compose spec: a list is the exec form, each item one argument) still
had its item dashes read as words: vLLM's was "not a server command", and SGLang's last value
was read as missing ("--speculative-num-steps has no value", with a hint about `ps`).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

SGLANG_ITEMS = """\
  - python3
  - -m
  - sglang.launch_server
  - --model-path
  - meta-llama/Llama-3.1-8B-Instruct
  - --speculative-algorithm
  - EAGLE3
  - --speculative-draft-model-path
  - yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
  - --speculative-num-steps
  - "3"
"""

VLLM_ITEMS = """\
- vllm
- serve
- meta-llama/Llama-3.1-8B-Instruct
- --speculative-config
- '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
"""


def test_an_sglang_command_list_keeps_its_last_value():
    cfg = parse_launch_command(SGLANG_ITEMS)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("sglang", "EAGLE3", 3)
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"


def test_a_vllm_command_list_is_its_server():
    cfg = parse_launch_command(VLLM_ITEMS)
    assert (cfg.engine, cfg.target_model, cfg.num_steps) == ("vllm", "meta-llama/Llama-3.1-8B-Instruct", 3)


def test_a_bulleted_list_of_whole_commands_is_still_read_as_before():
    cfg = parse_launch_command("- python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
                               "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert (cfg.engine, cfg.num_steps, cfg.target_model) == ("sglang", 3, "m")
