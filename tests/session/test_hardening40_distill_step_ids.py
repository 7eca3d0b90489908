"""A distilled step's id says what the command runs.

Before: `python scripts/bench.py` was `benchmark_python` (and the next script `benchmark_python_2`),
`python -u ./eval_accept.py --draft /models/eagle3` was `benchmark_eagle3` and `./serve.sh
/models/llama` `launch_server_llama`: the interpreter or a path among the arguments named the
step, not the script it ran."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

FAILED = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nRuntimeError: {}"
# each fails, and the next tries another way: every one leads to a change of approach
RUNS = [
    ("cd /root/work && python scripts/bench.py --model /models/llama-3.1-8b --n 100",
     FAILED.format("Connection refused: localhost:30000")),
    ("nvidia-smi --query-gpu=name,memory.used --format=csv", "name, memory.used\nNVIDIA H100 80GB HBM3, 79000 MiB"),
    ("python3 -u ./eval_accept.py --draft /models/eagle3-llama --n 100", FAILED.format("draft vocab mismatch")),
    ("cat /root/work/logs/server.log", "ready"),
    ("./run_eval.sh --n 100", FAILED.format("no such split: mt_bench")),
    ("ls /models", "eagle3-llama\nllama-3.1-8b"),
    ("torchrun --nproc-per-node 2 tools/check_tp.py --model /models/llama-3.1-8b", FAILED.format("NCCL error")),
    ("df -h /models", "Filesystem Size Used Avail Use% Mounted on\n/dev/nvme0n1 1.8T 1.2T 600G 67% /models"),
]


def test_step_ids_name_the_script_each_command_runs(tmp_path: Path) -> None:
    m = _Writer("9a1b0000-0000-4000-8000-00000000d140", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts too little; measure it.")
    for command, output in RUNS:
        m.bash(command, output, exit_code=1 if "Traceback" in output else 0)
    session = tmp_path / f"{m.session}.jsonl"
    session.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(session))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")  # valid
    ids = {s["id"]: s["run"] for s in doc["steps"] if "run" in s}
    for want in ("bench_py", "eval_accept_py", "run_eval_sh", "nvidia_smi", "server_log"):
        (step,) = [i for i in ids if i.endswith(want)]
        assert re.fullmatch(r"[a-z][a-z0-9_]*", step)
    assert not [i for i in ids if re.search(r"_(?:python3?|llama|eagle3|cd)(?:_\d+)?$", i)]
    assert len(ids) == len(set(ids))
