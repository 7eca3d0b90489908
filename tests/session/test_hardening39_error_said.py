"""analyze: a failed command's error is the line that says what went wrong, not its first line.

Before: with no traceback or known fault in the output, the message was the first line unless a
line started with "ERROR: " or "error: ". So a launch with a mistyped flag read "usage:
launch_server.py [-h] --model-path MODEL_PATH" (argparse prints its usage first, then "prog:
error: unrecognized arguments: ..."), a vLLM launch read its first INFO line instead of its
"ERROR 03-01 10:00:05 [engine.py:400] ..." line, a kernel build read "[1/3] nvcc ..." instead of
the compiler's "kernel.cu(45): error: ...", and a Slurm step read its program's first line
instead of "srun: error: gpu-node-3: task 0: Exited with exit code 1".
"""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

ARGPARSE = ("usage: launch_server.py [-h] --model-path MODEL_PATH [--tokenizer-path TOKENIZER_PATH]\n"
            "                        [--speculative-algorithm {EAGLE,EAGLE3,NEXTN,STANDALONE,NGRAM}]\n"
            "launch_server.py: error: unrecognized arguments: --speculative-num-step 3\n")
VLLM = ("INFO 03-01 10:00:00 [__init__.py:239] Automatically detected platform cuda.\n"
        "INFO 03-01 10:00:02 [api_server.py:1043] vLLM API server version 0.8.5\n"
        "ERROR 03-01 10:00:05 [engine.py:400] The draft model's vocab size 32000 does not match the target's 128256\n")
NVCC = ("[1/3] /usr/local/cuda/bin/nvcc -c csrc/eagle_kernels.cu -o build/eagle_kernels.o\n"
        "FAILED: build/eagle_kernels.o\n"
        "csrc/eagle_kernels.cu(45): error: identifier \"__nv_fp8_e4m3\" is undefined\n"
        "1 error detected in the compilation of \"csrc/eagle_kernels.cu\".\n"
        "ninja: build stopped: subcommand failed.\n")
SRUN = ("step 0 loss 2.31\n"
        "srun: error: gpu-node-3: task 0: Exited with exit code 1\n")


def _rollout(tmp_path, calls):
    """A Codex CLI rollout: each call an exec_command and its output with metadata.exit_code."""
    lines = [{"timestamp": "2026-03-02T11:00:00.000Z", "type": "session_meta",
              "payload": {"id": "39000000-0000-4000-8000-000000000039", "cwd": "/home/me/w",
                          "originator": "codex_cli_rs", "cli_version": "0.46.0"}},
             {"timestamp": "2026-03-02T11:00:01.000Z", "type": "event_msg",
              "payload": {"type": "user_message", "message": "the eagle3 server on gpu01 will not start"}}]
    for n, (command, output, exit_code) in enumerate(calls):
        stamp = f"2026-03-02T11:0{n + 1}:00.000Z"
        lines.append({"timestamp": stamp, "type": "response_item",
                      "payload": {"type": "function_call", "name": "shell", "call_id": f"call_{n}",
                                  "arguments": json.dumps({"command": ["bash", "-lc", command]})}})
        lines.append({"timestamp": stamp, "type": "response_item",
                      "payload": {"type": "function_call_output", "call_id": f"call_{n}",
                                  "output": json.dumps({"output": output,
                                                        "metadata": {"exit_code": exit_code, "duration_seconds": 1.5}})}})
    path = tmp_path / "rollout-2026-03-02T11-00-00-39000000-0000-4000-8000-000000000039.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return analyze_path(path)


def test_each_failure_is_read_from_the_line_that_says_what_went_wrong(tmp_path):
    analysis = _rollout(tmp_path, [
        ("ssh gpu01 'python -m sglang.launch_server --model-path m --speculative-num-step 3'", ARGPARSE, 2),
        ("ssh gpu02 'vllm serve meta-llama/Llama-3.1-8B-Instruct'", VLLM, 1),
        ("ssh gpu01 'cd sgl-kernel && python setup.py build_ext'", NVCC, 1),
        ("srun -w gpu-node-3 python train_eagle3.py", SRUN, 1),
    ])
    said = [(e.kind, e.host, e.message) for e in analysis.errors]
    assert said == [
        ("exit_code", "gpu01", "launch_server.py: error: unrecognized arguments: --speculative-num-step 3"),
        ("exit_code", "gpu02", "ERROR 03-01 10:00:05 [engine.py:400] The draft model's vocab size 32000 does not "
                               "match the target's 128256"),
        ("exit_code", "gpu01", "csrc/eagle_kernels.cu(45): error: identifier \"__nv_fp8_e4m3\" is undefined"),
        ("exit_code", "gpu-node-3", "srun: error: gpu-node-3: task 0: Exited with exit code 1"),
    ]


def test_a_failure_that_names_no_error_line_still_reads_its_first_line(tmp_path):
    analysis = _rollout(tmp_path, [("ssh gpu01 ./start.sh", "starting the server\nwaiting for port 30000\n", 3)])
    assert [(e.kind, e.message) for e in analysis.errors] == [("exit_code", "starting the server")]
