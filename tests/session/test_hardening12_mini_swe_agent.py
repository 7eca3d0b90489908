"""mini-swe-agent 2.x trajectories as its newer models write them (SWE-agent/mini-swe-agent):

- run on the Responses API (``litellm_response_model``, the way GPT-5 models are driven), a reply
  is the whole response object in ``messages`` and each command's output a
  ``function_call_output`` item whose text is the rendered observation template; the exit
  status is in ``extra.returncode`` (``models/utils/actions_toolcall_response.py``). Before, the
  command that failed had no exit code;
- the turns the loop adds after an exception carry ``extra.interrupt_type``: ``FormatError`` is
  the loop's, ``UserRejection``/``UserInterruption``/``UserNewTask`` a person's words
  (``agents/interactive.py``). Before, "Format error: … MUST include at least one tool call"
  was read as a prompt typed by the person;
- the run ends with ``{"role": "exit", "extra": {"exit_status": …}}`` (``agents/default.py``),
  which was counted as a line of unknown type.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

T0 = 1764000000.0
LAUNCH_HELP = "ssh gpu02 python3 -m sglang.launch_server --help | head -5"
NO_SGLANG = ("Traceback (most recent call last):\n"
             "  File \"/usr/lib/python3.10/runpy.py\", line 196, in _run_module_as_main\n"
             "ModuleNotFoundError: No module named 'sglang'\n")
FORMAT_ERROR = ("Format error:\n\n<error>\nNo tool calls found in the response. "
                "Every response MUST include at least one tool call.\n</error>")


def _responses_trajectory() -> dict:
    return {
        "info": {"exit_status": "LimitsExceeded", "submission": "", "mini_version": "2.1.0",
                 "config": {"model_type": "minisweagent.models.litellm_response_model.LitellmResponseModel"}},
        "trajectory_format": "mini-swe-agent-1.1",
        "messages": [
            {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
            {"role": "user", "content": "Find out why the EAGLE-3 server on gpu02 does not start."},
            # the reply: the Responses API response object, with the loop's extra
            {"id": "resp_0a1b2c", "object": "response", "created_at": int(T0), "status": "completed",
             "model": "gpt-5-mini-2025-08-07",
             "output": [{"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "gAAAAABo..."},
                        {"id": "fc_1", "type": "function_call", "call_id": "call_Q1", "name": "bash",
                         "arguments": json.dumps({"command": LAUNCH_HELP}), "status": "completed"}],
             "usage": {"input_tokens": 900, "output_tokens": 120, "total_tokens": 1020},
             "extra": {"actions": [{"command": LAUNCH_HELP, "tool_call_id": "call_Q1"}], "cost": 0.0012,
                       "timestamp": T0 + 1.5}},
            {"type": "function_call_output", "call_id": "call_Q1",
             "output": f"<returncode>1</returncode>\n<output>\n{NO_SGLANG}</output>",
             "extra": {"raw_output": NO_SGLANG, "returncode": 1, "timestamp": T0 + 4.0}},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": FORMAT_ERROR}],
             "extra": {"interrupt_type": "FormatError"}},
            {"type": "message", "role": "user",
             "content": [{"type": "input_text", "text": "Interrupted by user: it is installed in /opt/venv, use that python"}],
             "extra": {"interrupt_type": "UserInterruption"}},
            {"role": "exit", "content": "", "extra": {"exit_status": "LimitsExceeded", "submission": ""}},
        ],
    }


def test_a_responses_api_trajectory_keeps_the_exit_status_of_each_command(tmp_path: Path) -> None:
    path = tmp_path / "gpu02.traj.json"
    path.write_text(json.dumps(_responses_trajectory(), indent=2), encoding="utf-8")
    a = analyze_path(path)
    (command,) = a.commands
    assert (command.command, command.exit_code, command.is_error) == (LAUNCH_HELP, 1, True)
    (error,) = a.errors
    assert error.exception == "ModuleNotFoundError"


def test_the_loops_own_turns_are_not_the_persons(tmp_path: Path) -> None:
    path = tmp_path / "gpu02.traj.json"
    path.write_text(json.dumps(_responses_trajectory(), indent=2), encoding="utf-8")
    a = analyze_path(path)
    prompts = [p.text for p in a.prompts]
    assert prompts == ["Find out why the EAGLE-3 server on gpu02 does not start.",
                       "Interrupted by user: it is installed in /opt/venv, use that python"]
    (session,) = a.sessions
    assert session["unknown_types"] == 0
    md = render_postmortem(a, "md")
    assert "MUST include at least one tool call" not in md.split("## Supporting information")[0]


def test_a_chat_completions_format_error_is_the_loops_too(tmp_path: Path) -> None:
    """mini-swe-agent 1.x text model: the reply without a bash block gets
    ``{"role": "user", "content": "Please always provide EXACTLY ONE action…", "extra":
    {"interrupt_type": "FormatError", …}}`` (models/litellm_model.py ``parse_actions``)."""
    path = tmp_path / "run.traj.json"
    path.write_text(json.dumps({"trajectory_format": "mini-swe-agent-1.1", "info": {}, "messages": [
        {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
        {"role": "user", "content": "Why is accept length 1.0 on gpu01?"},
        {"role": "assistant", "content": "THOUGHT: let me look.", "extra": {"actions": [], "timestamp": T0}},
        {"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks, found 0 actions.",
         "extra": {"interrupt_type": "FormatError", "n_actions": 0, "model_response": "THOUGHT: let me look."}},
    ]}), encoding="utf-8")
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == ["Why is accept length 1.0 on gpu01?"]
