"""`spec-debug analyze X --format <TAB>`, `analyze X --input-format <TAB>` and `distill X
--input-format <TAB>` offered nothing, while the other options' values complete (report's and
explain's --format since rounds 71-72): the 19 transcript formats were in the help alone. They
are offered now: analyze's --format offers the outputs then the transcript formats it can force
(split_format), --input-format the transcript formats (auto first); in the case typed, and with
the `_` for `-` that input_format_name takes."""

from __future__ import annotations

from spec_debug.session.format_names import INPUT_FORMATS
from tests.onboarding.test_hardening71_explain_second_word_completion import complete


def test_input_format_offers_the_transcript_formats():
    assert complete("spec-debug analyze s.jsonl --input-format ") == list(INPUT_FORMATS)
    assert complete("spec-debug analyze s.jsonl --input-format co") == ["codex", "codex-exec", "copilot"]
    assert complete("spec-debug distill s.jsonl -o p.yaml --input-format cl") == ["claude-code"]
    assert complete("spec-debug distill s.jsonl --input-format K") == ["KIMI"]
    assert complete("spec-debug analyze s.jsonl --input-format claude_") == ["claude_code"]
    assert complete("spec-debug analyze s.jsonl --input-format zz") == []


def test_analyze_format_offers_outputs_and_forceable_formats():
    offered = complete("spec-debug analyze s.jsonl --format ")
    assert offered[:3] == ["md", "html", "json"]
    assert offered[3:] == [f for f in INPUT_FORMATS if f != "auto"]
    assert complete("spec-debug analyze s.jsonl --format h") == ["html"]
    assert complete("spec-debug analyze s.jsonl -f J") == ["JSON"]
    assert complete("spec-debug analyze s.jsonl --format gem") == ["gemini-cli"]
    assert complete("spec-debug analyze s.jsonl --format a") == ["asciicast"]


def test_every_offered_value_is_taken():
    from spec_debug.session.commands import split_format

    offered = complete("spec-debug analyze s.jsonl --format ")
    assert len(offered) == 3 + len(INPUT_FORMATS) - 1
    for value in offered:
        split_format(value, "auto")  # raises UsageError for a value analyze refuses
