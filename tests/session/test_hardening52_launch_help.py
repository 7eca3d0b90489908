"""analyze: `python -m sglang.launch_server --help` (or `vllm serve --help`) prints the usage and
exits; it was a server launch, so the incident's sub-agent, whose `--help` timed out before it
read server_args.py, "moved from launching the server to reading source code", and distill left
the command out of the playbook as a repair."""

from __future__ import annotations

import pytest

from spec_debug.session.shell import categorize


@pytest.mark.parametrize("command", [
    "timeout 60 ssh root@10.1.230.174 '~/ml-env/bin/python -m sglang.launch_server --help'",
    "python3 -m sglang.launch_server -h | grep speculative",
    "vllm serve --help=all",
    "vllm serve -h",
])
def test_asking_a_launcher_for_its_usage_is_no_launch(command):
    assert categorize(command, "Bash") != "launch_server"


@pytest.mark.parametrize("command", [
    "python -m sglang.launch_server --model-path /models/t --speculative-algorithm EAGLE3 --port 30000 &",
    "vllm serve /models/t --speculative-config '{\"model\": \"/models/d\", \"method\": \"eagle3\"}'",
])
def test_a_launch_is_still_one(command):
    assert categorize(command, "Bash") == "launch_server"


def test_the_incident_sub_agents_pivot_is_from_its_help_read():
    from tests.session.incident_story import analyzed_story

    _, a = analyzed_story()
    (pivot,) = [p for p in a.pivots if p.agent == "a1flags"]
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert "launching the server" not in pivot.summary  # was "moved from launching the server to reading source code"
