"""Two captures of one fact in a step: the one that matched nothing no longer erases the other.

A step that reads the acceptance length from either engine's log writes one capture per
spelling: SGLang's decode line says `accept len: 3.20` (scheduler_metrics_mixin.py,
log_decode_stats), vLLM's `Mean acceptance length: 3.20`. On an SGLang host the vLLM capture
matched nothing and set the fact None over the 3.2 the first had found; the check then failed
with "facts.accept_length is None (its capture matched nothing ...)", SD003, and the run said
nothing was checked. A capture that finds nothing now leaves a value an earlier capture of the
same step found (with or without a `default:`); when both find one, the later still wins.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.playbook.models import Capture
from spec_debug.runner.capture import apply_captures
from tests.conftest import run_cli

SGLANG = "[2026-12-06 10:00:00] Decode batch. #running-req: 1, #token: 512, accept len: 3.20, gen throughput (token/s): 210.5"
VLLM = "INFO 12-06 10:00:00 [metrics.py:85] SpecDecoding metrics: Mean acceptance length: 2.10, Accepted: 42 tokens"
BY_ENGINE = [Capture.model_validate({"regex": r"accept len: (?P<accept_length>[\d.]+)", "type": "float"}),
             Capture.model_validate({"regex": r"Mean acceptance length: (?P<accept_length>[\d.]+)", "type": "float"})]


@pytest.mark.parametrize(("log", "expected"), [(SGLANG, 3.2), (VLLM, 2.1), (f"{SGLANG}\n{VLLM}", 2.1), ("no line", None)])
def test_either_spelling_gives_the_fact(log, expected):
    assert apply_captures(BY_ENGINE, log, "") == {"accept_length": expected}  # SGLANG was None


def test_a_default_does_not_replace_what_an_earlier_capture_found():
    captures = [BY_ENGINE[0], BY_ENGINE[1].model_copy(update={"default": 0.0})]
    assert apply_captures(captures, SGLANG, "") == {"accept_length": 3.2}  # was 0.0
    assert apply_captures(captures, "no line", "") == {"accept_length": 0.0}


def test_json_captures_of_one_fact_fall_back_alike():
    captures = [Capture.model_validate({"json": "spec_accept_length", "name": "accept_length"}),
                Capture.model_validate({"json": "avg_spec_accept_length", "name": "accept_length", "default": -1})]
    assert apply_captures(captures, '{"spec_accept_length": 3.2}', "") == {"accept_length": 3.2}  # was -1
    assert apply_captures(captures, '{"avg_spec_accept_length": 2.5}', "") == {"accept_length": 2.5}


def test_an_all_capture_that_found_nothing_leaves_the_earlier_list():
    captures = [Capture.model_validate({"regex": r"gpu(?P<gpu>\d)", "all": True, "type": "int"}),
                Capture.model_validate({"regex": r"GPU (?P<gpu>\d):", "all": True, "type": "int"})]
    assert apply_captures(captures, "gpu0 gpu1", "") == {"gpu": [0, 1]}  # was []


def test_a_playbook_reading_either_engine_checks_an_sglang_host(tmp_path):
    (tmp_path / "log.txt").write_text(SGLANG + "\n")
    (tmp_path / "p.yaml").write_text(
        "name: accept\nsteps:\n  - id: accept\n    run: cat log.txt\n    capture:\n"
        "      - regex: 'accept len: (?P<accept_length>[\\d.]+)'\n        type: float\n"
        "      - regex: 'Mean acceptance length: (?P<accept_length>[\\d.]+)'\n        type: float\n"
        "    expect:\n      - that: facts.accept_length > 2\n")
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr  # was 0 too, but with SD003 and "nothing was checked"
    record = json.loads(result.stdout)
    assert record["facts"]["local"] == {"accept_length": 3.2}
    assert [s["status"] for s in record["steps"]] == ["passed"]
    assert record["findings"] == []
