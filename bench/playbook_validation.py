"""Validation time of a long generated playbook against a linear extrapolation of a short one.

A generated playbook (a step per GPU, per model, per config) can hold thousands of steps.
Two load-time checks once rescanned the earlier steps for every template (the ids a
`steps.X` may name; whether a probe ran before a `facts.X` read): validating 10,000 steps
took 39 s of CPU, 29 s of it in those scans. Here the CPU time of loading N and 10 x N steps
is compared in the same run (best of --repeat each, interleaved, the garbage collector off
so its full passes over a growing heap do not decide it): linear validation gives about 10x,
the old quadratic scans gave about 18x at 400/4000 and more beyond.

    python bench/playbook_validation.py                # 400 and 4,000 steps
    python bench/playbook_validation.py --steps 1000   # 1,000 and 10,000 steps

Goal: the long playbook costs at most 1.4 x its linear share (ratio <= 14 for 10x the steps).
"""

from __future__ import annotations

import argparse
import gc
import time

from spec_debug.playbook.loader import load_playbook_text
from spec_debug.playbook.yaml_nodes import MAX_STEPS

GOAL_FACTOR = 1.4


def playbook_text(steps: int) -> str:
    """Every step reads a fact the first step captures and the first step's status."""
    first = "  - id: s0\n    run: echo\n    capture:\n      - name: gpus\n        regex: '(\\d+)'\n"
    rest = "".join(f"  - id: s{i}\n    title: Schritt {i} prüfen\n    run: echo {i} {{{{ model }}}}\n"
                   f"    when: steps.s0.status == 'passed' and facts.gpus is defined\n" for i in range(1, steps))
    return f"name: long\nvars:\n  model: llama\nsteps:\n{first}{rest}"


def cpu_seconds(text: str, steps: int) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        playbook = load_playbook_text(text, "long.yaml")
        took = time.process_time() - start
    finally:
        gc.enable()
    assert len(playbook.steps) == steps
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400, help="steps of the short playbook (default 400)")
    parser.add_argument("--repeat", type=int, default=3, help="loads of each, best kept (default 3)")
    args = parser.parse_args()
    short_n, long_n = args.steps, 10 * args.steps
    if not 1 <= short_n <= MAX_STEPS // 10:
        # The long playbook is 10x --steps, and the loader refuses one past MAX_STEPS steps:
        # --steps 1001 ended in a PlaybookError traceback after 12 s of CPU, not a measurement.
        parser.error(f"--steps {short_n}: the long playbook is 10x that, and a playbook holds 1 to "
                     f"{MAX_STEPS:,} steps; give --steps from 1 to {MAX_STEPS // 10}")
    short_text, long_text = playbook_text(short_n), playbook_text(long_n)
    cpu_seconds(playbook_text(20), 20)  # imports and caches warmed
    shorts, longs = [], []
    for _ in range(max(1, args.repeat)):
        shorts.append(cpu_seconds(short_text, short_n))
        longs.append(cpu_seconds(long_text, long_n))
    short, long = min(shorts), min(longs)
    ratio = long / short
    print(f"{short_n:>6} steps: {short:.2f} s CPU  ({short / short_n * 1000:.2f} ms a step)")
    print(f"{long_n:>6} steps: {long:.2f} s CPU  ({long / long_n * 1000:.2f} ms a step)")
    verdict = "ok" if ratio <= 10 * GOAL_FACTOR else "MISSED"
    print(f"ratio:     {ratio:.1f}x the CPU for 10x the steps (linear: 10x; goal <= {10 * GOAL_FACTOR:g}x): {verdict}")
    return 0 if verdict == "ok" else 1


if __name__ == "__main__":
    raise SystemExit(main())
