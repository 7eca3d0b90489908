"""`drafter eval|layout|vocab --help`: --vocab-mapping names every form it reads.

The README (and vocab_mapping.read_vocab_mapping) take a training checkpoint's safetensors file or
folder that still holds d2t/t2d; the help named only vocab_mapping.pt and d2t.npy, so a user whose
map survives only in the training checkpoint read --help as a refusal."""
from __future__ import annotations

import re

import pytest

from tests.conftest import run_cli


def _option_help(text: str, option: str) -> str:
    """The help of one option, its wrapped lines joined (rich draws boxes around them)."""
    lines = [re.sub(r"[│╭╮╰╯─]", " ", line) for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if option in line)
    chunk = [lines[start]]
    for line in lines[start + 1:]:
        if re.match(r"\s*(\*\s*)?--", line) or not line.strip():
            break
        chunk.append(line)
    return " ".join(" ".join(chunk).split())


@pytest.mark.parametrize("command", ["eval", "layout", "vocab"])
def test_vocab_mapping_help_names_safetensors_checkpoints(command: str) -> None:
    result = run_cli("drafter", command, "--help")
    assert result.code == 0, result.stderr
    help_text = _option_help(result.stdout, "--vocab-mapping")
    assert "vocab_mapping.pt" in help_text and "d2t.npy" in help_text
    assert "safetensors" in help_text, help_text
    assert "d2t/t2d" in help_text
