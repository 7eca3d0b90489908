"""A playbook copied from a web page, a Word document or a chat, where the page's look-alikes
sit in the YAML structure: no-break spaces in an indent, a bullet or an en dash for a list
item's `-`, a CJK keyboard's full-width colon after a key.

YAML stopped at a later line with "mapping values are not allowed here" and a hint about ': '
in a run: value that had none, or "could not find expected ':'": nothing pointed at the
character, which looks like the right one in every editor."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

GOOD = """\
name: gpu_smoke
steps:
  - id: gpu
    title: GPU inventory
    run: nvidia-smi -L
"""


def _pasted(old: str, new: str) -> str:
    assert GOOD.count(old) == 1
    return GOOD.replace(old, new)


@pytest.mark.parametrize(("text", "where", "says", "hint"), [
    (_pasted("    title:", "\u00a0\u00a0  title:"), "4:1", "a U+00A0 NO-BREAK SPACE in the indentation", "indent with plain spaces"),
    (_pasted("  - id:", "  \u2022 id:"), "3:3", "a U+2022 BULLET where a list item's '-' goes", "write - (a plain hyphen)"),
    (_pasted("  - id:", "  \u2013 id:"), "3:3", "a U+2013 EN DASH where a list item's '-' goes", "write - (a plain hyphen)"),
    (_pasted("title:", "title\uff1a"), "4:10", "a U+FF1A FULLWIDTH COLON where a key's ':' goes", "write : (a plain colon)"),
    (_pasted("run: ", "run:\u00a0"), "5:9", "a U+00A0 NO-BREAK SPACE after a key's ':'", "write a plain space after the colon"),
])
def test_the_pasted_character_is_named_where_it_is(tmp_path, text, where, says, hint):
    (tmp_path / "smoke.yaml").write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "smoke.yaml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 2, said
    assert f"smoke.yaml:{where}: YAML syntax error: {says} (pasted from a web page or a document?)" in said
    assert f"hint: {hint}" in said


def test_no_break_spaces_inside_a_block_of_text_are_kept(tmp_path):
    text = GOOD + "    why: |\n      Counts the GPUs\u00a0the\u00a0server sees.\n"
    (tmp_path / "smoke.yaml").write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "smoke.yaml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
