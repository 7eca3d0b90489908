"""`\\\\` + newline inside a double-quoted `bash -lc "..."` string (session 13).

A public SpecForge evaluation script on GitHub starts SGLang as `nohup setsid bash -lc "cd ...;
exec python3 -m sglang.launch_server \\\\` + newline + `--model-path ... \\\\` ...: the outer shell
reads `\\\\` as one backslash (bash(1) QUOTING, inside double quotes), so the inner shell sees
`\\` + newline, a line continuation. The audit took the second backslash and the newline for a
continuation of the outer text, leaving `\\ ` (an escaped space) in the string: the inner
command got a ' ' word before each continued line, and `vllm serve \\\\` + newline + MODEL was
served with the model ' '.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command, split_command

VLLM = '''nohup bash -lc "
  source /srv/.venv/bin/activate
  exec vllm serve \\\\
    meta-llama/Llama-3.1-8B-Instruct \\\\
    --speculative-config '{\\"method\\": \\"eagle3\\", \\"model\\": \\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\", \\"num_speculative_tokens\\": 3}' \\\\
    --port 8000
" > server.log 2>&1 &
'''

SGLANG = '''nohup setsid bash -lc "
    cd '/srv/SpecForge'
    exec python3 -m sglang.launch_server \\\\
      --model-path '/models/Qwen3-8B' \\\\
      --dtype bfloat16 \\\\
      --host 127.0.0.1 --port 30000 --trust-remote-code
  " >server.log 2>&1 &
'''


def test_the_vllm_model_after_an_escaped_continuation():
    cfg = parse_launch_command(VLLM)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.algorithm == "EAGLE3" and cfg.num_steps == 3


def test_no_blank_words_in_the_inner_command():
    assert split_command(SGLANG) == ["exec", "python3", "-m", "sglang.launch_server", "--model-path", "/models/Qwen3-8B",
                                     "--dtype", "bfloat16", "--host", "127.0.0.1", "--port", "30000",
                                     "--trust-remote-code"]


def test_a_plain_continuation_still_joins():
    assert split_command("vllm serve m \\\n  --port 8000 \\  \n  --seed 1") == ["vllm", "serve", "m", "--port", "8000",
                                                                              "--seed", "1"]
