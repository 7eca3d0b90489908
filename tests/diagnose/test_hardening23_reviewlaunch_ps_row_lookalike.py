"""Review of the `docker ps --no-trunc` row reader (session 14, launch audit).

Any line `<12+ hex digits> <word> "<quoted>"` was taken for a docker ps row ahead of everything
else in the text. A pasted session with a `git log --format='%H %an "%s"'` line above the typed
`vllm serve ...` lost the command: the commit's subject was read as the container's command
('not an SGLang or vLLM server command'). A row is one under docker's `CONTAINER ID` header or
followed by its CREATED column (`2 hours ago`).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

SESSION = """$ git log --format='%H %an "%s"' -1
4f2c9c1e3b7a0d9e8f7a6b5c4d3e2f1a0b9c8d7e alice "fix vllm serve --speculative-config parsing"
$ vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":3}'
"""


def test_a_git_log_line_is_no_docker_ps_row():
    cfg = parse_launch_command(SESSION)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 3)


def test_a_row_with_its_created_column_is_still_read():
    row = ('4f2c9c1e3b7a   lmsysorg/sglang:v0.5.6   "python3 -m sglang.launch_server --model-path '
           'meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-num-steps 1 '
           '--speculative-eagle-topk 1 --speculative-num-draft-tokens 2"   2 hours ago   Up 2 hours   sglang\n')
    cfg = parse_launch_command(row)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("sglang", "EAGLE3", 1)
