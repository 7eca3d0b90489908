"""`spec-debug run perf_regression --var <TAB>` offered nothing: the var names had to be looked
up in the playbook's YAML (or `explain`) and typed by hand, and a misspelt one was refused only
when the run began. It offers the playbook's vars as `NAME=`, in the playbook's order, leaving
out those already given on the line. Click parses a line whose last option lacks its value
without setting any argument, so the playbook is read again from the line itself. Tested
through the bash (COMP_WORDS / COMP_CWORD) and zsh (_TYPER_COMPLETE_ARGS) protocols."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_MAIN = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"


def bash(line: str, cwd: Path | None = None) -> list[str]:
    """What bash's completion gets for LINE, the cursor at its end (a trailing space: a new word)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    proc = subprocess.run([sys.executable, "-c", _MAIN], env=env, capture_output=True, text=True, timeout=60, cwd=cwd)
    assert proc.stderr == ""
    return proc.stdout.split()


def zsh(line: str) -> str:
    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": line}
    env.pop("COMP_WORDS", None)
    proc = subprocess.run([sys.executable, "-c", _MAIN], env=env, capture_output=True, text=True, timeout=60)
    return proc.stdout.strip()


def test_a_shipped_playbooks_vars_are_offered_as_name_equals():
    assert bash("spec-debug run drafter_accuracy --var ") == [
        "draft_model=", "target_model=", "vocab_mapping=", "hidden_states=", "engine=", "engine_version=",
        "claimed_accuracy=", "python=", "device=", "max_samples="]
    assert bash("spec-debug run perf_regression -e eng") == ["engine=", "engine_version="]
    assert bash("spec-debug run --host gpu01 -f 4 host_smoke --var ") == ["python=", "min_free_gb="]


def test_vars_already_given_are_left_out():
    # bash splits `engine=sglang` at the = (COMP_WORDBREAKS): the words reach us as three
    assert bash("spec-debug run perf_regression --var engine = sglang -e eng") == ["engine_version="]
    assert bash("spec-debug run perf_regression -e draft_model=/ckpt --var draft") == []


def test_a_playbook_files_vars_are_offered(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text(
        "name: mine\nvars:\n  model: ''\n  port: 8000\n  log: ''\nsteps:\n"
        "  - id: look\n    requires: [model, log]\n    run: ls {{ model }} {{ log }}\n", encoding="utf-8")
    assert bash("spec-debug run mine.yaml --var ", cwd=tmp_path) == ["model=", "port=", "log="]
    assert bash("spec-debug run ./mine.yaml -e p", cwd=tmp_path) == ["port="]


def test_zsh_gets_them_too():
    assert zsh("spec-debug run perf_regression --var draft") == """_arguments '*: :(("draft_model="))'"""


def test_nothing_without_a_playbook_for_a_broken_one_or_for_the_value(tmp_path: Path):
    (tmp_path / "broken.yaml").write_text("name: [\n", encoding="utf-8")
    assert bash("spec-debug run --var ") == []
    assert bash("spec-debug run broken.yaml --var ", cwd=tmp_path) == []
    assert bash("spec-debug run nothere.yaml --var ", cwd=tmp_path) == []
    assert bash("spec-debug run 'unclosed --var ", cwd=tmp_path) == []
