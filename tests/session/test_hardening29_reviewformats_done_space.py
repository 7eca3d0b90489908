"""A ``data: [DONE]`` line with blanks after it (``data: [DONE] `` or a tab: a proxy's or an editor's
trailing whitespace) ends a Chat Completions stream saved with no blank lines (``grep '^data:'``), as
it ends one saved whole: openai-python stops at data that starts with ``[DONE]`` (``_streaming.py``),
and the event reader already reads ``[DONE]`` stripped. Round 29 ended only an exact ``[DONE]``: the
next answer's chunks were joined onto it, one broken JSON, and that answer's command was lost."""

from __future__ import annotations

import pytest

from spec_debug.session import analyze_path

from test_hardening29_formats_chat_stream import FIRST, NVIDIA, SECOND, UPTIME, _sse


@pytest.mark.parametrize("done", ["data: [DONE] \n", "data: [DONE]\t\n"], ids=["space", "tab"])
def test_done_with_trailing_blanks_ends_a_grepped_stream(tmp_path, done):
    path = tmp_path / "grepped.txt"
    path.write_text((_sse(FIRST, gap="") + _sse(SECOND, gap="")).replace("data: [DONE]\n", done))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [NVIDIA, UPTIME]  # was [NVIDIA]
    assert doc["sessions"][0]["broken_json"] == 0  # was 1
