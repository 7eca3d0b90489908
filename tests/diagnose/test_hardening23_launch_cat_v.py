"""`cat -v /proc/PID/cmdline` pasted as the launch (session 14).

`cat` of a cmdline prints nothing visible between the arguments; `cat -v` prints each NUL as
`^@` (cat(1) -v, "use ^ and M- notation"), which is how the argv reaches a chat when a user
shows the running server. It was 'not an SGLang or vLLM server command'; now `^@` separates
the argv words as the NULs did (a JSON with spaces stays one word).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

SGLANG = ("python3^@-m^@sglang.launch_server^@--model-path^@meta-llama/Llama-3.1-8B-Instruct^@--speculative-algorithm^@"
          "EAGLE3^@--speculative-draft-model-path^@jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B^@--speculative-num-steps^@1^@"
          "--speculative-eagle-topk^@1^@--speculative-num-draft-tokens^@2^@")
VLLM = ('/usr/bin/python3^@/usr/local/bin/vllm^@serve^@meta-llama/Llama-3.1-8B-Instruct^@--speculative-config^@'
        '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}^@--port^@8000^@\n')


def test_sglangs_cmdline_through_cat_v():
    cfg = parse_launch_command(SGLANG)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("sglang", "EAGLE3", 1, 1, 2)


def test_vllms_cmdline_keeps_its_json_one_word():
    cfg = parse_launch_command(VLLM)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)
