"""Codex rollouts of mid 2025 (before ``session_meta``): where the commands ran.

Such a rollout opens with a bare header ``{id, timestamp, instructions, cwd?, git?}``, then
``{"record_type": "state"}`` markers and bare response items; it has no ``session_meta`` and no
``turn_context``, so the only folders it names are the header's ``cwd`` (when the CLI wrote one)
and the ``<cwd>…</cwd>`` of the ``<environment_context>`` user message Codex injects
(codex-rs/core/src/environment_context.rs serialises ``cwd`` there). Commands without a
``workdir`` had ``cwd: None``: a relative path (``./server.log``, ``python train.py``) said
nothing about which checkout it ran in. Both are read now.
"""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

ENV = ("<environment_context>\n  <cwd>/srv/app</cwd>\n  <approval_policy>on-request</approval_policy>\n"
       "  <sandbox_mode>workspace-write</sandbox_mode>\n</environment_context>")


def _rollout(tmp_path, header_cwd=None, env=ENV, workdir=None):
    header = {"id": "c27a914d-1111-2222-3333-444455556668", "timestamp": "2025-06-02T09:00:00.000Z",
              "instructions": None}
    if header_cwd is not None:
        header["cwd"] = header_cwd
    args = {"command": ["bash", "-lc", "python -m sglang.launch_server --speculative-algorithm EAGLE3"]}
    if workdir is not None:
        args["workdir"] = workdir
    lines = [header, {"record_type": "state"}]
    if env is not None:
        lines.append({"type": "message", "id": None, "role": "user", "content": [{"type": "input_text", "text": env}]})
    lines += [
        {"type": "message", "id": None, "role": "user",
         "content": [{"type": "input_text", "text": "the eagle3 server crashes on start"}]},
        {"type": "function_call", "id": "fc_1", "name": "shell", "arguments": json.dumps(args), "call_id": "call_1"},
        {"type": "function_call_output", "call_id": "call_1",
         "output": json.dumps({"output": "ValueError: draft vocab mismatch\n",
                               "metadata": {"exit_code": 1, "duration_seconds": 3.2}})},
        {"record_type": "state"},
    ]
    path = tmp_path / "rollout-2025-06-02T09-00-00-c27a914d-1111-2222-3333-444455556668.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return analyze_path(path)


def test_the_environment_context_names_the_folder(tmp_path):
    (command,) = _rollout(tmp_path).commands
    assert (command.cwd, command.exit_code) == ("/srv/app", 1)


def test_the_header_cwd_names_the_folder(tmp_path):
    (command,) = _rollout(tmp_path, header_cwd="/home/me/eagle", env=None).commands
    assert command.cwd == "/home/me/eagle"


def test_a_relative_workdir_is_read_from_that_folder(tmp_path):
    (command,) = _rollout(tmp_path, workdir="bench").commands
    assert command.cwd == "/srv/app/bench"


def test_no_folder_said_is_none(tmp_path):
    (command,) = _rollout(tmp_path, env=None).commands
    assert command.cwd is None
