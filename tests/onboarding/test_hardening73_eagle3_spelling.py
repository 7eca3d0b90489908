"""`spec-debug explain "EAGLE-3 draft"` (the demo's own words: "a tiny EAGLE-3 draft") was "no
playbook file 'EAGLE-3 draft'" with a guess, while "eagle3 draft" was the eagle3 concept: the
hyphen made "eagle 3 draft", which no alias spelled. EAGLE-3 is one word however it is written
(EAGLE-3, Eagle 3, eagle_3, eagle3), in `explain`, in `findings`' concept hint and in the
completion of the next word."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug import glossary
from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["EAGLE-3 draft", "Eagle 3 draft", "eagle_3_draft", "EAGLE3 draft", "eagle 3"])
def test_every_spelling_of_eagle3_finds_the_concept(typed: str) -> None:
    concept = glossary.find_concept(typed)
    assert concept is not None and concept.name == "eagle3"


def test_explain_the_demos_wording(tmp_path: Path) -> None:
    for words in (("EAGLE-3 draft",), ("EAGLE-3", "draft")):
        result = run_cli("explain", *words, cwd=tmp_path)
        assert result.code == 0, result.stderr
        assert result.stdout.startswith("# eagle3\n")


def test_findings_points_the_wording_to_explain(tmp_path: Path) -> None:
    result = run_cli("findings", "EAGLE-3 draft", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[1] == (
        "  hint: EAGLE-3 draft is a concept, not a finding code: `spec-debug explain 'EAGLE-3 draft'` explains it")


def test_words_that_only_contain_eagle_are_left_alone() -> None:
    assert glossary.normalise("speculative-eagle-topk") == "speculative eagle topk"
    assert glossary.normalise("eagle 30 steps") == "eagle 30 steps"
    assert glossary.find_concept("--speculative-eagle-topk").name == "topk"


def test_the_next_word_after_eagle_3_is_completed() -> None:
    line = "spec-debug explain EAGLE-3 "
    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": "3"}
    script = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["draft"]
