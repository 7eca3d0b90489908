"""`spec-debug explain hidden_state_format <TAB>` offered nothing: explain takes a step of the
playbook named first (`explain PLAYBOOK STEP`), and a concept of several words typed without
quotes (`explain accept length`), but the second word had no completer. It offers the
playbook's steps, in its order, and the next word of a concept. Tested through click's bash
completion protocol (COMP_WORDS / COMP_CWORD, with the word under the cursor possibly empty)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def complete(line: str, cwd: Path | None = None) -> list[str]:
    """What bash's completion gets for LINE, the cursor at its end (a trailing space: a new word)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    script = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60,
                          cwd=cwd)
    return proc.stdout.split()


def test_a_shipped_playbooks_steps_are_offered_in_its_order():
    assert complete("spec-debug explain hidden_state_format ") == ["engine", "configs", "hidden_layout"]
    assert complete("spec-debug explain perf_regression ") == [
        "launch_flags", "engine", "configs", "vocab", "hidden_layout", "reference_forward", "drafter_eval", "throughput"]
    assert complete("spec-debug explain perf_regression hid") == ["hidden_layout"]
    assert complete("spec-debug explain host_smoke ") == ["host_info", "gpu_busy", "free_disk"]


def test_a_playbook_files_steps_are_offered(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text(
        "name: mine\nsteps:\n  - id: look\n    run: echo hi\n  - id: listen\n    run: echo ho\n  - id: other\n    run: 'true'\n",
        encoding="utf-8")
    assert complete("spec-debug explain mine.yaml l", cwd=tmp_path) == ["look", "listen"]
    assert complete("spec-debug explain ./mine.yaml ", cwd=tmp_path) == ["look", "listen", "other"]


def test_nothing_after_the_step_nor_for_a_broken_or_missing_file(tmp_path: Path):
    (tmp_path / "broken.yaml").write_text("name: [\n", encoding="utf-8")
    assert complete("spec-debug explain hidden_state_format engine ") == []
    assert complete("spec-debug explain broken.yaml ", cwd=tmp_path) == []
    assert complete("spec-debug explain nothere.yaml ", cwd=tmp_path) == []


def test_the_next_word_of_a_concept_typed_without_quotes():
    assert complete("spec-debug explain accept ") == ["len", "length", "rate"]
    assert complete("spec-debug explain accept le") == ["len", "length"]
    assert complete("spec-debug explain num ") == ["draft", "speculative", "steps"]
    assert complete("spec-debug explain num draft ") == ["tokens"]
    assert complete("spec-debug explain SD101 ") == []
