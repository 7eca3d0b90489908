"""`spec-debug demo` took 49 s on a machine with a load average of 6 on 2 cores (63 s was seen;
the README says "in seconds"). Its models are tiny (hidden size 32), and torch's intra-op
threads over such tensors only wait on one another: the hidden_layout probe took 26-36 s with
torch's two threads and 12.6 s with one, its JSON the same. The demo's simulated host now runs
its commands with OMP_NUM_THREADS=1, unless the user set it."""

from __future__ import annotations

import shlex
import sys

import pytest

from spec_debug import demo
from spec_debug.runner.output import StreamCapture


def _host_says(command: str) -> str:
    transport = demo_target_transport()
    out = StreamCapture("stdout")
    outcome = transport.run(command, stdout=out, stderr=StreamCapture("stderr"))
    assert outcome.exit_code == 0
    return out.text().strip()


def demo_target_transport():
    target = demo.demo_target()
    assert target.name == "demo-gpu01" and target.transport == "local"
    return target.connect()


def test_the_demo_host_runs_its_probes_with_one_torch_thread(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert _host_says('printf %s "$OMP_NUM_THREADS"') == "1"
    pytest.importorskip("torch")
    assert _host_says(f"{shlex.quote(sys.executable)} -c 'import torch; print(torch.get_num_threads())'") == "1"


def test_a_thread_count_the_user_set_is_kept(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert _host_says('printf %s "$OMP_NUM_THREADS"') == "3"


def test_a_step_s_own_environment_still_reaches_the_command(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    transport = demo_target_transport()
    out = StreamCapture("stdout")
    transport.run('printf "%s %s" "$OMP_NUM_THREADS" "$DEMO_X"', stdout=out, stderr=StreamCapture("stderr"),
                  env={"DEMO_X": "y"})
    assert out.text() == "1 y"
