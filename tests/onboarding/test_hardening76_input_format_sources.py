"""The README says `analyze` reads Aider chat history, Cline and Roo Code tasks and GitHub Actions
/ GitLab CI job logs, but none of them is an `--input-format` name: `analyze
.aider.chat.history.md --input-format aider` said "unknown input format 'aider'" and listed 19
names, none saying which reads Aider. It is still a usage error (exit 2: the name is no format),
and now says the format that reads the source and that leaving the option out detects it; the
same under `--format aider`. An unknown name no source has is refused as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from spec_debug.session.format_names import INPUT_FORMATS

AIDER = """
# aider chat started at 2026-03-01 10:00:00

> /usr/bin/aider --model sonnet

#### why is decode slower with eagle3?

Let me check the launch flags.
"""
KNOWN = ", ".join(INPUT_FORMATS)


def _analyze(tmp_path, *args: str) -> tuple[int, str, str]:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(AIDER)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(path), *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    return proc.returncode, proc.stdout, proc.stderr


def test_input_format_aider_names_text_and_auto(tmp_path):
    code, out, err = _analyze(tmp_path, "--input-format", "aider")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "error: unknown input format 'aider': Aider's chat history (.aider.chat.history.md) is read as `text`",
        f"  hint: leave --input-format out (auto detects it), or use one of {KNOWN}"]
    code, out, _ = _analyze(tmp_path, "--format", "json")
    assert code == 0 and json.loads(out)["format"] == "text"  # what the words promise


def test_format_aider_says_the_same(tmp_path):
    code, _, err = _analyze(tmp_path, "--format", "aider")
    assert code == 2
    assert err.splitlines()[1] == ("  hint: Aider's chat history (.aider.chat.history.md) is read as `text`; "
                                   "leave the format out and auto detects it")


def test_cline_roo_and_ci_logs(tmp_path):
    from spec_debug.errors import UsageError
    from spec_debug.session.format_names import input_format_name

    said = {}
    for name in ("Cline", "roo_code", "github-actions", "gitlab"):
        try:
            input_format_name(name)
        except UsageError as exc:
            said[name] = exc.message
    assert said == {
        "Cline": "unknown input format 'Cline': Cline's task history (api_conversation_history.json) is read as "
                 "`openai`, its exported task as `specstory`",
        "roo_code": "unknown input format 'roo_code': Roo Code's task history (api_conversation_history.json) is "
                    "read as `openai`, its exported task as `specstory`",
        "github-actions": "unknown input format 'github-actions': a GitHub Actions job log is read as `text`",
        "gitlab": "unknown input format 'gitlab': a GitLab CI job log is read as `text`"}


def test_a_name_no_source_has_is_refused_as_before(tmp_path):
    code, _, err = _analyze(tmp_path, "--input-format", "bard")
    assert code == 2
    assert err.splitlines() == ["error: unknown input format 'bard'", f"  hint: use one of {KNOWN}"]
