"""OpenCode's compaction read from a logging proxy's record of its calls. Its compaction question
(``What did we do so far?``, a ``compaction`` part: sst/opencode ``packages/opencode/src/session/
message-v2.ts``) and the note it adds after an automatic one (``Continue if you have next steps, ...``,
a synthetic part: ``session/compaction.ts``) are OpenCode's words, read from its own store as no
prompt (formats.opencode); each request after the compaction opens with the question and the summary
the compaction call already gave: read again, the run had the question as two prompts, the note as a
third, and the summary twice."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening70_proxied_compactions import _run, _write


def test_the_compaction_is_read_once_and_as_opencode_s_notes(tmp_path: Path) -> None:
    _write(logs := tmp_path / "logs", _run("a", "gpu07"))
    doc = analyze_path(logs).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["the EAGLE-3 draft on gpu07 accepts almost nothing, find out why"]
    # the system prompt, the prompt, three commands and their output, the question, the summary,
    # the note, the last answer
    assert [s["events"] for s in doc["sessions"]] == [12]


def test_a_question_the_person_asks_in_other_words_is_still_a_prompt(tmp_path: Path) -> None:
    calls = _run("a", "gpu07")
    messages, answer = calls[1]
    asked = {"role": "user", "content": [{"type": "text", "text": "What did we do so far? Keep it short."}]}
    _write(logs := tmp_path / "logs", [calls[0], ([*messages, asked], answer)])
    doc = analyze_path(logs).to_json()
    assert [p["text"] for p in doc["prompts"]][-1] == "What did we do so far? Keep it short."
