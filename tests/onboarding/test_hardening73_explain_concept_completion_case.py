"""`spec-debug explain SGL<TAB>` or `explain EAG<TAB>` (SGLang and EAGLE as the docs and the
demo write them) offered nothing: the concepts' spellings are lower case and were matched as
typed, while `explain SGLang` itself finds the concept in any case. They are now offered in the
case typed, as the finding codes are (Typer drops a candidate that does not start with the typed
text), and each one offered is a concept `explain` finds."""

from __future__ import annotations

import os
import subprocess
import sys

from spec_debug import glossary


def complete(line: str) -> list[str]:
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    script = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    return proc.stdout.split()


def test_capitalised_concepts_are_offered_in_the_case_typed():
    offered = complete("spec-debug explain SGL")
    assert "SGLang" in offered
    assert all(word.startswith("SGL") for word in offered)
    assert "EAGle-3" in complete("spec-debug explain EAG")


def test_every_word_offered_is_a_concept():
    for word in complete("spec-debug explain EAG") + complete("spec-debug explain SGL"):
        assert glossary.find_concept(word) is not None, word


def test_lower_case_is_unchanged():
    assert complete("spec-debug explain acc") == ["acc_0", "accept_length", "acceptance"]
