"""The diagnose checks on a drafter evaluation and layout probe of a dump whose token ids sit
one position off against its states (built as tests/eagle3/test_hardening59_ids_off_by_one.py
builds it: transformers' verifier, speculators 0.9.0's draft, vLLM-style states). SD401 sent a
low accuracy to the weights without the eval's note that the ids are off, and SD402 said
another layout fits (from scores read on the wrong tokens), sending the user to re-capture
the layers. SD401 now carries the note; SD402 stays quiet, as for an untrained draft."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.checks.drafter import IDS_OFF, check_layout, check_standalone_accuracy  # noqa: E402
from spec_debug.eagle3.alignment import MISALIGNED  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.test_hardening59_ids_off_by_one import _world  # noqa: E402


def test_the_diagnose_text_is_the_note_s_beginning():
    assert IDS_OFF == MISALIGNED


def test_sd401_names_ids_off_and_sd402_is_quiet(tmp_path):
    root = _world(tmp_path / "w", 1)
    metrics = evaluate_drafter(root / "draft", root / "data")
    [finding] = check_standalone_accuracy(metrics, 0.7)
    assert any(IDS_OFF in line and "one behind" in line for line in finding.evidence)
    report = probe_layout(root / "draft", root / "data")
    assert report["ids_misaligned"]
    assert check_layout(report) == []
