"""A probe whose JSON is nested too deep to read says so, not that it printed no JSON.

parse_json_output refuses JSON nested past MAX_FACT_DEPTH levels with "the output is JSON nested
too deep to read (... more than N levels deep)", and a capture step says that. A probe step threw
the reason away and said "probe host_info printed no JSON (exit code 0): no output" - the host
printed JSON, and exited 0, and the message sent the user looking for a crash. JSON 900 levels
deep did parse, and then ended the host with "internal error: RecursionError" (the facts walked
by redaction and run.json); a capture refuses past MAX_FACT_DEPTH, and a probe now does too. Through the real
CLI on --host local, with a python that is a script printing the deep document.
"""

from __future__ import annotations

import pytest

from spec_debug.runner.capture import MAX_FACT_DEPTH
from tests.conftest import only_run, run_cli


def _probe_step(tmp_path, body: str) -> dict:
    python = tmp_path / "python3"
    python.write_text(f"#!/bin/sh\n{body}")
    python.chmod(0o755)
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"name: deep\nsteps:\n  - id: info\n    probe: host_info\n    with:\n      python: {python}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    return step


@pytest.mark.parametrize("depth", [
    5000,  # past json.loads' own recursion limit: was "printed no JSON (exit code 0): no output"
    900,  # parsed, then walked by the run: was "host local error: internal error: RecursionError"
    MAX_FACT_DEPTH + 1,  # past the bound a capture and a --var-file keep
])
def test_a_probe_printing_json_nested_too_deep_says_so(tmp_path, depth):
    document = "[" * depth + "]" * depth
    step = _probe_step(tmp_path, f"printf '%s\\n' '{document}'\n")
    assert step["status"] == "error", step
    message = step["message"]
    assert message == (f"probe host_info printed JSON nested too deep to read (lists and objects within each other, "
                       f"more than {MAX_FACT_DEPTH} levels deep)"), message
    assert "no JSON" not in message


def test_a_probe_printing_no_json_still_says_so(tmp_path):
    step = _probe_step(tmp_path, "echo 'Loading...'\n")
    assert step["status"] == "error"
    assert step["message"].startswith("probe host_info printed no JSON (exit code 0): "), step["message"]
