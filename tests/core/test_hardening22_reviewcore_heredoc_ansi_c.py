"""A heredoc after ANSI-C quoting that holds an escaped quote (`$'it\\'s'`, bash(1), QUOTING):
the heredoc scan of 98fa01b read `\\'` as the end of a plain single-quoted string, so the last `'`
opened a quote that never closed, the heredoc after it took no body, and a curly quote in that
body (a prompt's own text) failed `playbooks validate`, which accepted it before 98fa01b.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.playbook.pasted_characters import checked_part

PLAYBOOK = """\
name: ansi_c
steps:
  - id: prompt
    run: |
      {first}
      cat <<EOF > prompt.txt
      Say \u201chello\u201d \u2014 nvidia\u2011smi
      EOF
      ls -la
"""


@pytest.mark.parametrize("first", [
    "echo $'it\\'s'",
    "printf '%s\\n' $'a\\'b\\\\' done",
    "IFS=$'\\n'; echo \"$'x\"",
])
def test_a_heredoc_after_ansi_c_quoting_is_still_a_body(first):
    command = first + "\ncat <<EOF\nSay \u201chi\u201d nvidia\u2011smi\nEOF\nls"
    assert "\u2011" not in checked_part(command)
    assert "\u201c" not in checked_part(command)


def test_validate_accepts_the_playbook(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(first="echo $'it\\'s'"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "p.yaml"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok p.yaml" in proc.stdout


def test_a_look_alike_after_ansi_c_quoting_is_still_found():
    # the quote ends where bash ends it, so the shell words after it are checked
    from spec_debug.playbook.pasted_characters import pasted_character
    assert pasted_character("echo $'it\\'s'\ncat <<EOF\nbody\nEOF\nnvidia\u2011smi -L") is not None
