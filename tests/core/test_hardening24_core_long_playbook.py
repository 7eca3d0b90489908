"""A long playbook (a generated one: a step per GPU, per model, per config; 10,000 steps) is
validated in time linear in its steps. Two checks scanned the earlier steps for each step
(the ids a `steps.X` may name, whether a probe ran before a `facts.X` read): validating
10,000 steps took 39 s of CPU, of which 29 s in those scans. Measured as a ratio of CPU
times, so that a slow or busy machine does not decide it: ten times the steps must cost
about ten times the time, not twenty and more."""

from __future__ import annotations

import time

from spec_debug.playbook.loader import load_playbook_text


def _playbook(steps: int) -> str:
    first = "  - id: s0\n    run: echo\n    capture:\n      - name: gpus\n        regex: '(\\d+)'\n"
    rest = "".join(f"  - id: s{i}\n    title: Schritt {i} prüfen\n    run: echo {i} {{{{ model }}}}\n"
                   f"    when: steps.s0.status == 'passed' and facts.gpus is defined\n" for i in range(1, steps))
    return f"name: long\nvars:\n  model: llama\nsteps:\n{first}{rest}"


def _cpu_seconds(text: str) -> float:
    start = time.process_time()
    playbook = load_playbook_text(text, "long.yaml")
    assert playbook.steps[-1].id.startswith("s")
    return time.process_time() - start


def test_validation_time_grows_with_the_steps_not_their_square():
    short, long = _playbook(400), _playbook(4000)
    _cpu_seconds(_playbook(20))  # imports and caches warmed
    ratio = _cpu_seconds(long) / min(_cpu_seconds(short), _cpu_seconds(short))
    assert ratio < 14, f"4000 steps took {ratio:.1f} times the CPU of 400"
