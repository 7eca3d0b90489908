"""The walkthrough's "Healthy" for a diagnostic probe step said only "the probe's checks raise no
finding"; the newcomer who then ran the playbook met `SD004 Not checked: --var engine=sglang|vllm
...` on the engine step, which passed. What a walkthrough says a step does on a host with no
engine must be what the run does there: a passing step with an SD004 info line."""

from __future__ import annotations

import importlib.util
import json

import pytest

from tests.conftest import run_cli

UNCHECKED = ("the probe's checks raise no finding; a check that lacks an input is SD004 (info), "
             "a line naming the `--var` to pass, not a failure")


def test_the_walkthrough_says_what_the_run_then_shows(tmp_path):
    walkthrough = json.loads(run_cli("explain", "hidden_state_format", "--json").stdout)
    engine = next(s for s in walkthrough["steps"] if s["id"] == "engine")
    assert engine["healthy"] == [UNCHECKED]

    if any(importlib.util.find_spec(engine) for engine in ("sglang", "vllm")):
        pytest.skip("an engine is installed here: the engine step finds it")
    # no engine installed, and no --var names one
    run = run_cli("run", "hidden_state_format", "--host", "local", "--json", "--out", str(tmp_path / "runs"), cwd=tmp_path)
    record = json.loads(run.stdout)
    step = next(s for s in record["steps"] if s["id"] == "engine")
    assert step["status"] == "passed"
    assert [(f["code"], f["severity"]) for f in record["findings"] if f["step"] == "engine"] == [("SD004", "info")]


def test_a_probe_with_no_checks_keeps_the_plain_words():
    walkthrough = json.loads(run_cli("explain", "host_smoke", "--json").stdout)
    host_info = next(s for s in walkthrough["steps"] if s["id"] == "host_info")
    assert host_info["healthy"][0] == "the probe's checks raise no finding"
