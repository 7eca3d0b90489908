"""Shell completion offers shipped playbook names and finding codes (Typer/click protocol)."""

from __future__ import annotations

import os
import subprocess
import sys


def complete(words: str) -> list[str]:
    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    script = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    return proc.stdout.split()


def test_completes_playbook_names():
    assert complete("spec-debug run perf") == ["perf_regression"]
    assert "drafter_accuracy" in complete("spec-debug explain d")


def test_completes_finding_codes():
    assert complete("spec-debug findings SD20") == ["SD201", "SD202", "SD203", "SD204"]


def test_explain_completes_codes_and_concepts_too():
    """explain takes a finding code and a concept as well as a playbook (spec_debug.glossary)."""
    offered = complete("spec-debug explain d")  # and the current folder's d* folders and YAML files
    assert offered[0] == "drafter_accuracy" and {"d2t", "draft_vocab_size"} <= set(offered)
    assert complete("spec-debug explain SD10") == ["SD101", "SD102", "SD103", "SD104"]
    assert complete("spec-debug explain norm_b") == ["norm_before_fc", "norm_before_residual"]
