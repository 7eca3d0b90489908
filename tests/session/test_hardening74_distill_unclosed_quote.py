"""distill: a session whose chosen command opens a quote that never closes (an agent's
``python3 -c 'import sglang; print(sglang.__version__)``, bash's "unexpected EOF while looking for
matching" and exit code 2) made ``spec-debug distill`` stop with the loader's refusal of that
``run:`` ("opens a quote ' that never closes", exit code 2) and write no playbook at all, not even
the good steps of the session. That command is now left out, with a "left out N command(s) ..."
line on stderr like the other left-out kinds, and the rest of the playbook is written. A session
with nothing else to keep is told why in one line. Sessions are written the way Claude Code
writes them (incident_story._Writer)."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

SHELL_SAID = ("bash: -c: line 1: unexpected EOF while looking for matching `''\n"
              "bash: -c: line 2: syntax error: unexpected end of file")
PIVOT = "That did not work. Let me try a different approach: check the checkpoint on the host instead."


def _session(tmp_path: Path, failing: str, *, more: bool = True) -> Path:
    m = _Writer("9a1b0000-0000-4000-8000-00000000e741", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash(failing, SHELL_SAID, exit_code=2)
    if more:
        m.bash("ssh gpu01 cat /models/e3/config.json", '{"draft_vocab_size": 32000}', exit_code=0, text=PIVOT)
    else:
        # the agent's next try has the same slip
        m.bash("ssh gpu01 \"grep 'accept len /var/log/sglang/server.log\"", SHELL_SAID, exit_code=2, text=PIVOT)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def _distill(session: Path, output: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(session), "-o", str(output)],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("failing", [
    "ssh gpu01 \"python3 -c 'import sglang; print(sglang.__version__)\"",  # open inside the hop
    "python3 -c 'import sglang; print(sglang.__version__)",  # open in the session's own shell
])
def test_the_command_is_left_out_and_the_playbook_written(tmp_path: Path, failing: str) -> None:
    output = tmp_path / "p.yaml"
    done = _distill(_session(tmp_path, failing), output)
    assert done.returncode == 0, done.stderr
    doc_text = output.read_text(encoding="utf-8")
    load_playbook_text(doc_text, str(output))
    assert "sglang.__version__" not in doc_text
    assert "run: cat {{ config_json }}" in doc_text
    assert done.stderr.splitlines()[-1] == (
        "left out 1 command with a quote that never closes (the shell failed it before it ran): "
        "`python3 -c 'import sglang; print(sglang.__version__)` [msg 1]")


def test_nothing_else_to_keep_says_why(tmp_path: Path) -> None:
    session = _session(tmp_path, "ssh gpu01 \"python3 -c 'import sglang; print(sglang.__version__)\"", more=False)
    with pytest.raises(UsageError) as raised:
        distill_playbook(analyze_path(session))
    assert raised.value.message == (
        "nothing to distill: every command that led to a finding or a change of approach opens a quote that never "
        "closes, so the shell failed it before it ran (`python3 -c 'import sglang; print(sglang.__version__)` "
        "[msg 1], `grep 'accept len /var/log/sglang/server.log` [msg 3])")
    done = _distill(session, tmp_path / "p.yaml")
    assert done.returncode == 2 and not (tmp_path / "p.yaml").exists()
    assert done.stderr.startswith("error: nothing to distill: every command"), done.stderr


def test_a_heredoc_with_an_apostrophe_is_still_a_step(tmp_path: Path) -> None:
    """The shell itself must agree the quote is open: a `don't` in a heredoc body is text."""
    m = _Writer("9a1b0000-0000-4000-8000-00000000e742", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash("ssh gpu01 \"python3 - <<'EOF'\n# don't trust the d2t length\nprint(32000)\nEOF\"",
           "Error: draft_vocab_size 32000 mismatch", exit_code=1)
    m.bash("ssh gpu01 ls /models/e3", "config.json", exit_code=0, text=PIVOT)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    assert doc["steps"][0]["run"] == "python3 - <<'EOF'\n# don't trust the d2t length\nprint(32000)\nEOF"
