"""A `<<` that is not a heredoc operator: a shift in arithmetic (`$((1<<20))`, `(( n <<= 1 ))`),
or text in quotes (`grep "<<EOF" log`) or a comment. The pasted-character check took each for a
heredoc start and blanked the rest of the command as its body, so a look-alike after it
(`nvidia‑smi` with U+2011, an em dash for `--`) loaded and failed on the host mid-run.
bash(1), ARITHMETIC EVALUATION; POSIX Shell & Utilities 2.2 Quoting, 2.7.4 Here-Document.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.playbook.pasted_characters import checked_part

PLAYBOOK = """\
name: shift_check
steps:
  - id: launch
    run: |
      {first}
      nvidia\u2011smi -L
"""


def _validate(tmp_path, first: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(first=first), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "p.yaml"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize("first", [
    'echo "chunk: $((1<<20)) bytes"',
    "echo $((1<<20))",
    "(( n = 1<<3 ))",
    "x=$(( (1 << 2) + (3) ))",
    'grep -c "<<EOF" server.log || true',
    "echo 'a <<END b'",
    "ls  # then cat <<EOF",
])
def test_a_shift_or_a_quoted_lt_lt_does_not_hide_the_rest(tmp_path, first):
    proc = _validate(tmp_path, first)
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 2, said
    assert "p.yaml:6:13: the command of step 'launch' has a non-ASCII hyphen (U+2011" in said
    assert "Traceback" not in said


@pytest.mark.parametrize("command", [
    "cat <<EOF\nnvidia\u2011smi\nEOF\nls",                  # a body is the text it feeds
    'x="$(cat <<EOF\nnvidia\u2011smi\nEOF\n)"\nls',           # a heredoc in $(...) in double quotes
    "cat <<A <<B\na\u2011\nA\nb\u2011\nB\nls",               # two bodies, one after the other
    "cat <<\\EOF\nq\u2011\nEOF\nls",                          # a backslash-quoted delimiter
    "echo $((1<<2)); cat <<E\nq\u2011\nE\nls",               # a shift, then a real heredoc
])
def test_real_heredoc_bodies_are_still_blanked(command):
    checked = checked_part(command)
    assert "\u2011" not in checked
    assert checked.endswith("\nls") and len(checked) == len(command)
