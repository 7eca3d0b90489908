"""postmortem: a loop of runs that differ in a value keeps the names the runs typed alike.

An agent that relaunches SGLang three times with a lower ``--mem-fraction-static`` after each
CUDA OOM ran one loop (its runs share a template); "What went wrong" and the action item showed
that template, `pythonN -m sglang.launch_server … --speculative-algorithm EAGLEN …`: a program and
an algorithm nobody typed (the digits of a name were masked as a value's are). The names come
back as typed; the numbers on their own stay masked (test_hardening8_postmortem's `sleep N`).
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
# torch/cuda/memory.py's message for a failed allocation, as a launch's traceback ends
OOM = ("Traceback (most recent call last):\n"
       '  File "/opt/sglang/python/sglang/srt/model_executor/model_runner.py", line 412, in init_memory_pool\n'
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
       "of 79.11 GiB\n")
LAUNCH = ("ssh gpu01 'python3 -m sglang.launch_server --model-path /models/llama31-8b --speculative-algorithm "
          "EAGLE3 --speculative-draft-model-path /models/llama31-8b-eagle3 --mem-fraction-static {m}'")


def _story(tmp_path: Path, fractions: tuple[str, ...]) -> tuple[dict, int]:
    m = _Writer("8a1b0000-0000-4000-8000-0000000070a1", None, START)
    m.prompt("The EAGLE-3 server on gpu01 dies with a CUDA OOM when it starts.")
    first = [m.bash(LAUNCH.format(m=f), OOM, exit_code=1)[0] for f in fractions][0]
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return postmortem_view(analyze_path(path)), first


def test_relaunches_with_other_memory_fractions_show_the_program_and_algorithm_typed(tmp_path):
    view, first = _story(tmp_path, ("0.9", "0.85", "0.8"))
    [wrong] = [line for line in view["went_wrong"] if line.startswith("The same failing command")]
    assert wrong == (f"The same failing command ran 3 times [msg {first}]…[msg {first + 4}] (main): "
                     "`ssh gpu01 'python3 -m sglang.launch_server --model-path /models/llama31-8b "
                     "--speculative-algorithm EAGLE3…` — torch.OutOfMemoryError")
    items = {item["source"]: item["action"] for item in view["action_items"]}
    assert items[f"loop [msg {first}]"] == ("Read the error before re-running `ssh gpu01 'python3 -m "
                                            "sglang.launch_server --model-path /models/llama31-8b…`: it failed "
                                            "3 times with torch.OutOfMemoryError")


def test_a_versioned_model_name_and_an_address_typed_alike(tmp_path):
    """Qwen2.5-7B is a name (kept whole); the address and port every run typed are values (masked)."""
    m = _Writer("8a1b0000-0000-4000-8000-0000000070a3", None, START)
    m.prompt("The EAGLE-3 server dies with a CUDA OOM when it starts.")
    cmd = "ssh root@10.1.230.174 'python3 -m sglang.launch_server --model-path /m/Qwen2.5-7B --port 30000 --tp {t}'"
    first = [m.bash(cmd.format(t=t), OOM, exit_code=1)[0] for t in (1, 2, 4)][0]
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    view = postmortem_view(analyze_path(path))
    [wrong] = [line for line in view["went_wrong"] if line.startswith("The same failing command")]
    assert wrong == (f"The same failing command ran 3 times [msg {first}]…[msg {first + 4}] (main): "
                     "`ssh root@N.N.N.N 'python3 -m sglang.launch_server --model-path /m/Qwen2.5-7B --port N "
                     "--tp N'` — torch.OutOfMemoryError")


def test_a_name_whose_digits_differ_between_runs_stays_masked(tmp_path):
    """gpu01 then gpu02 with another fraction: which host is what varied, so its digits are N."""
    m = _Writer("8a1b0000-0000-4000-8000-0000000070a2", None, START)
    m.prompt("The EAGLE-3 server dies with a CUDA OOM when it starts.")
    runs = [("gpu01", "0.9"), ("gpu02", "0.8"), ("gpu01", "0.7")]
    cmd = "ssh {h} 'python3 -m sglang.launch_server --speculative-algorithm EAGLE3 --mem-fraction-static {m}'"
    first = [m.bash(cmd.format(h=h, m=f), OOM, exit_code=1)[0] for h, f in runs][0]
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    view = postmortem_view(analyze_path(path))
    [wrong] = [line for line in view["went_wrong"] if line.startswith("The same failing command")]
    assert wrong == (f"The same failing command ran 3 times [msg {first}]…[msg {first + 4}] (main): "
                     "`ssh gpuN 'python3 -m sglang.launch_server --speculative-algorithm EAGLE3 "
                     "--mem-fraction-static N.N'` on gpu01, gpu02 — torch.OutOfMemoryError")
