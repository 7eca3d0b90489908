"""A failed command whose error line is indented (Elixir's compile diagnostics) is named by it,
not by its first line ("Compiling 4 files (.ex)").

The output is shaped as in a real Claude Code 2.1.39 session committed by marot/spotter
(``test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl`` at commit
8cc42b0, a ``mix test ... 2>&1`` that ended with ``Exit code 1``); shortened, names kept.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

MIX_TEST = """\
Exit code 1
Compiling 4 files (.ex)
Generated spotter app
Getting extensions in current project...
Running setup for AshSqlite.DataLayer...
Running ExUnit with seed: 873002, max_cases: 32

     error: undefined function get/2 (expected SpotterWeb.ProjectReviewLiveTest to define such a function or for it to be imported, but none are available)
     \u2502
 128 \u2502       {:ok, _view, html} = live(conn, "/projects/#{project.id}/review")
     \u2502       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
     \u2502
     \u2514\u2500 test/spotter_web/live/project_review_live_test.exs:128: SpotterWeb.ProjectReviewLiveTest."test mount excludes closed annotations"/1

"""

UNDEFINED_GET = ("error: undefined function get/2 (expected SpotterWeb.ProjectReviewLiveTest to define such a "
                 "function or for it to be imported, but none are available)")


def test_an_indented_compile_error_names_the_failed_command():
    # before: ("exit_code", "Compiling 4 files (.ex)"): the first line, how the build began
    errors = extract_errors(MIX_TEST, 1, True)
    assert [(e.kind, e.message) for e in errors] == [("exit_code", UNDEFINED_GET)]


def test_an_indented_line_that_says_no_error_is_not_taken():
    # a failed command whose indented lines hold no "error:" keeps its first line
    out = "Exit code 2\nCompiling 41 files (.ex)\n     warning: variable \"messages\" is unused\n"
    assert [(e.kind, e.message) for e in extract_errors(out, 2, True)] == [("exit_code", "Compiling 41 files (.ex)")]


def _line(kind: str, uuid: str, parent: str | None, ts: str, content, **extra) -> str:
    obj = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": "/home/marco/projects/spotter",
           "sessionId": "258c7280-ae70-4798-800f-63464d01a85d", "version": "2.1.39", "gitBranch": "spotter-gqc",
           "type": kind, "uuid": uuid, "timestamp": ts, "message": {"role": kind, "content": content}}
    obj.update(extra)
    return json.dumps(obj)


def test_the_session_error_is_the_compile_error(tmp_path: Path):
    call = {"type": "tool_use", "id": "toolu_01MixTest", "name": "Bash",
            "input": {"command": "mix test test/spotter_web/live/project_review_live_test.exs 2>&1",
                      "description": "Run project review tests"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_01MixTest", "content": MIX_TEST.rstrip("\n"),
              "is_error": True}
    lines = [
        _line("user", "u1", None, "2026-02-12T16:00:00.000Z", "Add the project review page and make its tests pass"),
        _line("assistant", "a1", "u1", "2026-02-12T16:00:05.000Z", [call], requestId="req_1"),
        _line("user", "u2", "a1", "2026-02-12T16:00:30.000Z", [result],
              toolUseResult="Error: " + MIX_TEST.rstrip("\n")),
    ]
    path = tmp_path / "258c7280-ae70-4798-800f-63464d01a85d.jsonl"
    path.write_text("\n".join(lines) + "\n")
    analysis = analyze_path(path)
    assert [(e.kind, e.message) for e in analysis.errors] == [("exit_code", UNDEFINED_GET)]
    assert [(c.exit_code, c.command) for c in analysis.commands] == [
        (1, "mix test test/spotter_web/live/project_review_live_test.exs 2>&1")]


# pip's shape for a wheel that would not build (as users paste flash-attn's): its box opens with an
# indented "error: subprocess-exited-with-error"; its last, unindented ERROR line says which wheel.
PIP_WHEEL = """\
Building wheels for collected packages: flash-attn
  Building wheel for flash-attn (setup.py) ... error
  error: subprocess-exited-with-error
  
  \u00d7 python setup.py bdist_wheel did not run successfully.
  \u2502 exit code: 1
  \u2570\u2500> [3 lines of output]
      running bdist_wheel
      error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
  Running setup.py clean for flash-attn
Failed to build flash-attn
ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects
"""


def test_an_unindented_error_line_comes_before_an_indented_one():
    assert [(e.kind, e.message) for e in extract_errors(PIP_WHEEL, 1, True)] == [
        ("exit_code", "ERROR: Could not build wheels for flash-attn, which is required to install "
                      "pyproject.toml-based projects")]
