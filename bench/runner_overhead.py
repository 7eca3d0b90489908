"""Per-step overhead of the runner on --host local, against a plain subprocess.run loop.

Both run `true` 100 times in the same process, interleaved over several rounds (median), so
machine noise hits both. The runner's per-step cost includes rendering, the record update
(run.json rewritten atomically after every step) and output capture.

Goal (issue #2): overhead under 2 ms per step.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from spec_debug.playbook.loader import LoadedPlaybook
from spec_debug.playbook.models import Playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.store import RunStore


def playbook_of_true(steps: int) -> LoadedPlaybook:
    playbook = Playbook.model_validate({"name": "bench", "steps": [{"id": f"s{i}", "run": "true"} for i in range(steps)]})
    return LoadedPlaybook(playbook=playbook, path="<bench>", sha256="0" * 64)


def time_runner(loaded: LoadedPlaybook, out: Path) -> float:
    store = RunStore.create(out, "bench")
    run = Run(loaded, [HostTarget(name="local", connect=LocalTransport)], store, options=RunOptions())
    started = time.perf_counter()
    record = run.execute()
    elapsed = time.perf_counter() - started
    assert record.status == "passed" and len(record.steps) == len(loaded.playbook.steps)
    return elapsed


def time_subprocess(steps: int) -> float:
    started = time.perf_counter()
    for _ in range(steps):
        subprocess.run(["/bin/bash", "-c", "true"], capture_output=True, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    loaded = playbook_of_true(args.steps)
    runner_times, baseline_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        time_runner(loaded, Path(tmp))  # warm-up: imports, bundle-free path
        for _ in range(args.rounds):
            baseline_times.append(time_subprocess(args.steps))
            runner_times.append(time_runner(loaded, Path(tmp)))
    runner_step = statistics.median(runner_times) / args.steps * 1000
    baseline_step = statistics.median(baseline_times) / args.steps * 1000
    overhead = runner_step - baseline_step
    print(f"steps per run:           {args.steps} x {args.rounds} rounds (median)")
    print(f"baseline subprocess.run: {baseline_step:.3f} ms/step")
    print(f"spec-debug runner:       {runner_step:.3f} ms/step")
    print(f"ratio runner/baseline:   {runner_step / baseline_step:.2f}x")
    print(f"per-step overhead:       {overhead:.3f} ms (goal < 2 ms: {'MET' if overhead < 2 else 'NOT MET'})")


if __name__ == "__main__":
    main()
