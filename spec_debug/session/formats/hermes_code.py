"""Hermes Agent's ``execute_code`` tool ("programmatic tool calling"): the model writes a Python
script that calls Hermes's tools through ``from hermes_tools import terminal, ...``, and the
session keeps only the script (``{"code": ...}``) and what it printed (``{"status", "output",
"tool_calls_made", "duration_seconds"}``, ``"error"`` and ``"exit_code"`` when it failed;
NousResearch/hermes-agent ``tools/code_execution_tool.py``, whose ``terminal`` stub is
``terminal(command: str, timeout=None, workdir=None)``).

Read as any other tool, a script's ``terminal("ssh gpu01 …")`` calls were no commands: the server
launch, its host and its failure hid in the Python.
"""

from __future__ import annotations

import ast
import json

TOOL = "execute_code"
_SHELL = "terminal"
_MOST = 64
"""Commands read from one script (a loop of literals is a few; a generated script of thousands is
cut here)."""


def script_commands(code) -> str | None:
    """The shell commands a script's source gives ``terminal()`` as string literals, one a line,
    in the order they are written; None when it gives none. A command the script builds while it
    runs (an f-string, ``"cat " + f``) is no literal and is not read; a script that does not
    parse (cut short) gives none."""
    if not isinstance(code, str) or _SHELL + "(" not in code:
        return None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if called != _SHELL:
            continue
        given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "command"), None)
        if isinstance(given, ast.Constant) and isinstance(given.value, str) and given.value.strip():
            found.append((node.lineno, node.col_offset, given.value.strip()))
            if len(found) == _MOST:
                break
    return "\n".join(command for *_, command in sorted(found)) or None


_FAILED = frozenset({"error", "timeout"})
"""How a script that failed ended (``status``); ``interrupted`` is a stop by hand, ``success`` its end."""


def script_result(text: str) -> tuple[str, int | None, bool] | None:
    """What a script printed, its exit code where the result gives one (a remote backend's), and
    whether it failed (``status`` ``error`` or ``timeout``), the result's ``error`` after what it
    printed; None when ``text`` is no ``execute_code`` result. Kept whole, the result's JSON hid
    the script's traceback in escaped lines, and a timeout's error was the whole JSON."""
    try:
        result = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(result, dict) or not isinstance(output := result.get("output"), str) \
            or not isinstance(status := result.get("status"), str):
        return None
    error = result.get("error")
    if isinstance(error, str) and error.strip() and error not in output:
        output = f"{output.rstrip()}\n{error}" if output.strip() else error
    code = result.get("exit_code")
    code = code if type(code) is int else None
    return output, code, status in _FAILED or bool(code)
