"""A fact that is its capture's `default:` is said to be one when a check fails on it.

`capture: [{regex: 'tok/s: (?P<tps>[\\d.]+)', default: 0}]` on a server that never printed the
line, then `that: facts.tps > vars.min_tps`: the failed check said "(facts.tps = 0, vars.min_tps =
80)", which reads as a measured zero throughput; it was the default, nothing having matched."""

from __future__ import annotations

import json

import pytest

from spec_debug.runner.capture import apply_captures
from spec_debug.playbook.models import Capture
from tests.conftest import run_cli


def _run(tmp_path, output: str, tail: str) -> dict:
    (tmp_path / "p.yaml").write_text(
        "name: t\nvars:\n  min_tps: 80\nsteps:\n  - id: bench\n    run: |\n"
        f"      echo '{output}'\n"
        "    capture:\n"
        "      - regex: 'tok/s: (?P<tps>[\\d.]+)'\n        type: float\n        default: 0\n"
        "      - json: engine.version\n        name: version\n        default: unknown\n" + tail)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    return json.loads(result.stdout)


def test_a_failed_that_says_the_fact_is_the_default(tmp_path):
    record = _run(tmp_path, "{}", "    expect:\n      - that: facts.tps > vars.min_tps and facts.version != 'unknown'\n")
    assert record["steps"][0]["expectations"][0]["observed"] == (
        "False (facts.tps = 0 (the capture's default: nothing matched), vars.min_tps = 80,"
        " facts.version = 'unknown' (the capture's default: no value at engine.version))")


def test_a_check_of_the_fact_alone_says_it_too(tmp_path):
    record = _run(tmp_path, "{}", "    expect:\n      - that: facts.tps\n")
    assert record["steps"][0]["expectations"][0]["observed"] == (
        "0 (facts.tps = 0 (the capture's default: nothing matched))")


def test_a_measured_value_is_said_plainly(tmp_path):
    record = _run(tmp_path, '{"line": "tok/s: 0"}', "    expect:\n      - that: facts.tps > vars.min_tps\n")
    assert record["steps"][0]["expectations"][0]["observed"] == "False (facts.tps = 0.0, vars.min_tps = 80)"


def test_an_until_that_never_held_says_it(tmp_path):
    record = _run(tmp_path, "{}", "    until: facts.tps > vars.min_tps\n    retries: 1\n    retry_delay: 0\n")
    assert record["steps"][0]["message"] == (
        "until 'facts.tps > vars.min_tps' was still false after 2 attempt(s)"
        " (facts.tps = 0 (the capture's default: nothing matched), vars.min_tps = 80)")


@pytest.mark.parametrize(("stdout", "defaulted"), [
    ("nothing here", {"tps": "the capture's default: nothing matched"}),
    ("tok/s: 3", {}),
    ("rate 7", {}),  # the second spelling of the line found it
])
def test_apply_captures_names_the_defaulted_facts(stdout, defaulted):
    captures = [Capture.model_validate({"regex": r"tok/s: (?P<tps>\d+)", "default": 0}),
                Capture.model_validate({"regex": r"rate (?P<tps>\d+)", "default": 0}),
                Capture.model_validate({"regex": r"(?P<seen>never)"})]
    said: dict[str, str] = {}
    apply_captures(captures, stdout, "", None, said)
    assert said == defaulted
