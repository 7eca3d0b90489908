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
