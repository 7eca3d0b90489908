"""`spec-debug explain --speculative-algorithm` (or `--speculative-draft-model-path`), a flag a
newcomer reads in every SGLang launch line the docs show (docs/findings.md's SD101 and SD103
examples: `--speculative-algorithm EAGLE3 --speculative-draft-model-path ./k25-eagle3 ...`), was
"error: no such option: --speculative-algorithm" and "spec-debug explain --help lists the
options": the other speculative flags of that line were concepts, these two not. They are the
eagle3 concept's, whose engines line names them (SGLang server_args.py, EAGLE3.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("typed", ["--speculative-algorithm", "speculative_algorithm",
                                   "--speculative-draft-model-path", "speculative_draft_model_path"])
def test_the_launch_line_s_eagle_flags_are_explained(tmp_path, typed):
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# eagle3\n")
    assert "`--speculative-algorithm EAGLE3 --speculative-draft-model-path DRAFT`" in result.stdout


def test_every_speculative_flag_the_docs_show_is_a_topic(tmp_path):
    shown = set()
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        shown |= set(re.findall(r"--speculative-[a-z-]*[a-z]", page.read_text(encoding="utf-8")))
    assert {"--speculative-algorithm", "--speculative-draft-model-path", "--speculative-num-steps"} <= shown
    for flag in sorted(shown):
        result = run_cli("explain", flag, cwd=tmp_path)
        assert result.code == 0 and result.stdout.startswith("# "), (flag, result.stderr)
