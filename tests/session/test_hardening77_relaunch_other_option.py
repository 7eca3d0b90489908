"""A relaunch with the same speculative flags but another option changed is told by that option.

The draft server ran out of GPU memory at ``--mem-fraction-static 0.95``; the engineer looked at
the GPUs and relaunched it at 0.8, the same speculative flags, and the benchmark ran. Before, the
Resolution said the throughput "was first measured after restarting the server (the same
speculative flags)": the change that fixed it went unsaid, as if nothing had changed. Now it
says "relaunching the server with `--mem-fraction-static 0.8` (was `--mem-fraction-static
0.95`)"; an option dropped is said "without ...", and a relaunch that changed no option (a
restart to load an edited file) is still "restarting the server (the same speculative flags)"."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

LAUNCH = ("python3 -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/l31-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 4 {options} --port 30000")
OOM = [
    "[2026-12-07 10:00:09 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=62.10 GB, "
    "mem usage=15.08 GB.",
    "Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2310, in run_scheduler_process',
    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB "
    "of which 1.02 GiB is free.",
]
BENCH = ["root@gpu01:~# python3 -m sglang.bench_serving --backend sglang --num-prompts 64 --port 30000",
         "============ Serving Benchmark Result ============",
         "Output token throughput (tok/s):         1843.21",
         "Accept length:                           3.12",
         "=================================================="]


def _resolution(tmp_path: Path, first: str, second: str) -> list[str]:
    lines = [f"root@gpu01:~# {LAUNCH.format(options=first)}", *OOM,
             "root@gpu01:~# nvidia-smi --query-gpu=memory.used,memory.total --format=csv",
             "memory.used [MiB], memory.total [MiB]", "512 MiB, 81559 MiB",
             f"root@gpu01:~# {LAUNCH.format(options=second)} > server.log 2>&1 &", "[1] 4242", *BENCH,
             "root@gpu01:~# exit"]
    path = tmp_path / "terminal.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return postmortem_view(analyze_path(path))["resolution"]


def test_the_option_the_relaunch_changed_is_the_change(tmp_path: Path) -> None:
    assert _resolution(tmp_path, "--mem-fraction-static 0.95", "--mem-fraction-static 0.8") == [
        "Throughput was first measured after relaunching the server with `--mem-fraction-static 0.8` (was "
        "`--mem-fraction-static 0.95`) [msg 2]: 1843.21 tok/s on gpu01 [msg 3]; nothing was measured before the "
        "changes to compare it with."]


def test_an_option_dropped_and_one_added(tmp_path: Path) -> None:
    assert _resolution(tmp_path, "--tp 1 --disable-cuda-graph", "--tp 2")[0].startswith(
        "Throughput was first measured after relaunching the server with `--tp 2` (was `--tp 1`), without "
        "`--disable-cuda-graph` [msg 2]: ")


def test_no_option_changed_is_a_restart(tmp_path: Path) -> None:
    assert _resolution(tmp_path, "--mem-fraction-static 0.8", "--mem-fraction-static 0.8")[0].startswith(
        "Throughput was first measured after restarting the server (the same speculative flags) [msg 2]: ")
