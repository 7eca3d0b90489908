"""ShareGPT records in LLaMA-Factory's tool-use form (hiyouga/LLaMA-Factory ``data/README.md``): the
model's call is a turn of its own, ``{"from": "function_call", "value": "{\\"name\\", \\"arguments\\"}"}``,
its output the ``observation`` turn after it; the tools sit in a ``tools`` key beside.

Before: the ``function_call`` turn was a message of an unknown role: no command, the failure in the
observation the output of nothing. Now it is the call, the observation its result."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def test_a_function_call_turn_is_a_call_and_its_observation_the_result(tmp_path: Path) -> None:
    path = tmp_path / "tool_use.json"
    path.write_text(json.dumps([{"conversations": [
        {"from": "human", "value": "is the draft model's config there?"},
        {"from": "function_call", "value": json.dumps(
            {"name": "run_shell", "arguments": {"command": "cat /models/draft/config.json"}})},
        {"from": "observation", "value": "cat: /models/draft/config.json: No such file or directory\nExit code: 1"},
        {"from": "gpt", "value": "It is missing."}],
        "system": "You run shell commands.", "tools": json.dumps([{"name": "run_shell"}])}], indent=2))
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [("cat /models/draft/config.json", 1, True)]
    assert [p.text for p in a.prompts] == ["is the draft model's config there?"]
    assert a.sessions[0]["unknown_types"] == 0
