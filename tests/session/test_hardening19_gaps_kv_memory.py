"""An SGLang server that dies at start because the KV cache got no room: ``RuntimeError: Not
enough memory. Please try to increase --mem-fraction-static.`` (model_runner.py,
init_memory_pool). Its share of the GPU was set too small; the fix is the opposite of an
OOM's, so it is its own kind of error, not a plain traceback nor a ``cuda_oom``."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
          "EAGLE3 --speculative-draft-model-path /models/eagle3 --mem-fraction-static 0.35")
SGLANG_LOG = (
    "[2025-09-10 12:00:04 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=62.10 GB, "
    "mem usage=15.02 GB.\n"
    "[2025-09-10 12:00:05 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2288, in run_scheduler_process\n'
    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)\n"
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1197, in init_memory_pool\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: "
    "self.server_args.mem_fraction_static=0.35\n\n"
    "[2025-09-10 12:00:05] Received sigquit from a child process. It usually means the child failed.\n"
)


def _session(tmp_path, output: str):
    sid = "dddd0000-0000-4000-8000-000000000019"

    def line(n, kind, content, **extra):
        return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": sid,
                "version": "2.1.220", "type": kind, "uuid": f"u{n}", "timestamp": f"2025-09-10T12:00:{n:02d}.000Z",
                "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}

    lines = [
        line(0, "user", "start the EAGLE-3 server"),
        line(1, "assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": LAUNCH}}]),
        line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                          "content": f"Exit code 1\n{output}"}]),
    ]
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_sglang_without_room_for_its_kv_cache_is_a_memory_budget_error_not_a_traceback(tmp_path):
    doc = _session(tmp_path, SGLANG_LOG)
    [error] = doc["errors"]
    assert (error["kind"], error["exception"]) == ("kv_cache_memory", "RuntimeError")
    assert error["message"].startswith("Not enough memory. Please try to increase --mem-fraction-static.")
    assert error["file"].endswith("model_runner.py") and error["command_seq"] == 1
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(1, True)]


def test_the_bare_line_of_a_log_tail_is_the_same_error(tmp_path):
    # `tail -2 server.log` after the launch died: the exception line without its traceback
    doc = _session(tmp_path, "[2025-09-10 12:00:05 TP0] Init torch distributed ends. mem usage=0.00 GB\n"
                             "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n")
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [("kv_cache_memory", "RuntimeError")]


def test_vllms_twin_is_the_same_kind(tmp_path):
    doc = _session(tmp_path, (
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/worker/worker.py", line 530, in raise_if_cache_size_invalid\n'
        "    raise ValueError(\"No available memory for the cache blocks. \"\n"
        "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine.\n"))
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [("kv_cache_memory", "ValueError")]


def test_a_real_out_of_memory_stays_an_oom(tmp_path):
    doc = _session(tmp_path, SGLANG_LOG.replace(
        "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: "
        "self.server_args.mem_fraction_static=0.35",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
        "79.10 GiB of which 1.06 GiB is free."))
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]
