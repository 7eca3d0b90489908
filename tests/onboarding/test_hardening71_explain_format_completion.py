"""`spec-debug explain perf_regression --format <TAB>` offered nothing: md, html and json were in
the help only. They are offered now (in the case typed: `--format HTML` is accepted too)."""

from __future__ import annotations

from tests.onboarding.test_hardening71_explain_second_word_completion import complete


def test_the_formats_are_offered():
    assert complete("spec-debug explain perf_regression --format ") == ["md", "html", "json"]
    assert complete("spec-debug explain SD101 --format h") == ["html"]
    assert complete("spec-debug explain d2t --format J") == ["JSON"]


def test_the_topic_after_the_format_is_still_completed():
    assert complete("spec-debug explain --format md perf_") == ["perf_regression"]
