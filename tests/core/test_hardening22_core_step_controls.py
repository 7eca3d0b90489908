"""`run --step` shows each command before the user says "run". A value with terminal controls
(a --var, a var file, a playbook pasted from elsewhere) reached the terminal as is: ESC[8m
concealed the rest of the command, a CR printed a harmless-looking tail over its start, and a
bidi override (Trojan Source, CVE-2021-42574) showed its words in another order. Each is now
shown as a visible mark (the U+2400 control pictures the reports use, <U+202E> for bidi)."""

from __future__ import annotations

import os
import subprocess
import sys

PLAYBOOK = """\
name: simple
vars:
  greeting: hi
steps:
  - id: hello
    title: Say hello
    run: echo {{ greeting }}
"""


def _step(tmp_path, value: str) -> str:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step",
                           "--var", f"greeting={value}"], capture_output=True, text=True, cwd=tmp_path, input="s\n",
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout + proc.stderr


def test_controls_in_the_command_are_shown_not_acted_on(tmp_path):
    said = _step(tmp_path, "safe\x1b[8m; rm -rf ~/models\rsafe ok\u202eevil")
    assert "\x1b" not in said and "\r" not in said and "\u202e" not in said
    assert "echo 'safe\u241b[8m; rm -rf ~/models\u240dsafe ok<U+202E>evil'" in said


def test_a_plain_command_is_shown_as_written(tmp_path):
    said = _step(tmp_path, "h\u00e9llo w\u00f6rld\ttab")
    assert "echo 'h\u00e9llo w\u00f6rld\ttab'" in said or "echo 'h\u00e9llo w\u00f6rld" in said
    assert "\u2409" not in said  # a tab is no control to hide
