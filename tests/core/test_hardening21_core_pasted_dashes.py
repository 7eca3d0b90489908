"""A launch command pasted from a runbook in Confluence, Notion or a Slack message: the editor
made `--` an em dash, `-` a non-breaking hyphen, and the page's spaces no-break spaces.

The playbook validated, and the step failed on the host after the steps before it had run:
sglang's argparse said "unrecognized arguments: —speculative-algorithm", bash said
"nvidia‑smi: command not found" (the two look the same in the playbook). Now `validate` and
`run` refuse it with file:line:column and the characters to write, as they do curly quotes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PLAYBOOK = """\
name: launch_check
steps:
  - id: gpus
    run: nvidia-smi -L || true
  - id: launch
    title: Launch flags the server was given
    run: |
      echo "checking the server's flags"
      {command}
"""


def _cli(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize(("command", "column", "says", "hint"), [
    ("python3 -m sglang.launch_server \u2014speculative-algorithm EAGLE3", 39,
     "has a typographic dash \u2014 (U+2014 EM DASH, pasted from a document?)", "write --speculative-algorithm"),
    ("python3 \u2013m sglang.launch_server --help", 15, "has a typographic dash \u2013 (U+2013 EN DASH", "write -m"),
    ("nvidia\u2011smi --query-gpu=name --format=csv", 13,
     "has a non-ASCII hyphen (U+2011 NON-BREAKING HYPHEN, pasted from a document?)", "replace it with -"),
    ("ls\u00a0/models", 9, "has an invisible U+00A0 NO-BREAK SPACE", "replace it with a plain space, or delete it"),
    ("cat /models/eagle3/config.json\u200b", 37, "has an invisible U+200B ZERO WIDTH SPACE", "replace it with a plain space"),
])
def test_pasted_characters_are_refused_where_they_are(tmp_path, command, column, says, hint):
    (tmp_path / "launch.yaml").write_text(PLAYBOOK.format(command=command), encoding="utf-8")
    for args in (("playbooks", "validate", "launch.yaml"), ("run", "launch.yaml", "--host", "local", "--out", "runs")):
        proc = _cli(tmp_path, *args)
        said = " ".join((proc.stdout + proc.stderr).split())
        assert proc.returncode == 2, said
        assert f"launch.yaml:9:{column}: the command of step 'launch' {says}" in said
        assert f"hint: {hint}" in said
        assert "Traceback" not in said
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("command", [
    'echo "GPU 0 \u2014 busy"',                    # quoted: the author's words
    "echo GPU 0 \u2014 busy",                      # a dash between words, as in a sentence
    "nvidia-smi -L  # the GPUs \u2014 all of them",  # a comment
    "python3 -c 'print(\"\u2014x\")'",
])
def test_dashes_in_words_quotes_and_comments_load(tmp_path, command):
    (tmp_path / "launch.yaml").write_text(PLAYBOOK.format(command=command), encoding="utf-8")
    proc = _cli(tmp_path, "playbooks", "validate", "launch.yaml")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_heredoc_body_keeps_its_text(tmp_path):
    command = "cat > /tmp/prompt.txt <<'EOF'\n      Summarise \u2014briefly\u2014 this\u00a0text\n      EOF"
    (tmp_path / "launch.yaml").write_text(PLAYBOOK.format(command=command), encoding="utf-8")
    proc = _cli(tmp_path, "playbooks", "validate", "launch.yaml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
