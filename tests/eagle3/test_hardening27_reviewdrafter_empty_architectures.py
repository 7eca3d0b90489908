"""Review of a312b63: a draft config with "architectures": [] was told vLLM fails with
"'NoneType' object is not iterable", the error of a config without the key; with an empty
list EAGLEConfig iterates nothing and vLLM stops with no model class to load."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from spec_debug.eagle3.config import parse_draft_config  # noqa: E402
from spec_debug.eagle3.loading import _no_architectures_note  # noqa: E402
from tests.eagle3.test_hardening27_drafter_no_architectures import EAGLE  # noqa: E402


def test_an_empty_list_is_not_told_the_none_error():
    note = _no_architectures_note(parse_draft_config({**EAGLE, "architectures": []}))
    assert "fails to start (no model class to load)" in note and "NoneType" not in note


def test_an_absent_key_keeps_the_none_error():
    raw = {k: v for k, v in EAGLE.items() if k != "architectures"}
    assert "('NoneType' object is not iterable)" in _no_architectures_note(parse_draft_config(raw))
