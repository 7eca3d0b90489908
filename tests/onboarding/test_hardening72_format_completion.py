"""`spec-debug report RUN --format <TAB>` and `spec-debug playbooks validate X --format <TAB>`
offered nothing (explain's --format offers md, html, json since round 71): the formats were in
the help alone. They are offered now, in the case typed (both commands take any case)."""

from __future__ import annotations

from tests.onboarding.test_hardening71_explain_second_word_completion import complete


def test_report_offers_its_formats():
    assert complete("spec-debug report runs/x --format ") == ["md", "html", "json"]
    assert complete("spec-debug report runs/x --format h") == ["html"]
    assert complete("spec-debug report runs/x --format J") == ["JSON"]


def test_playbooks_validate_offers_text_and_json():
    assert complete("spec-debug playbooks validate mine.yaml --format ") == ["text", "json"]
    assert complete("spec-debug playbooks validate mine.yaml --format T") == ["TEXT"]
    assert complete("spec-debug playbooks validate mine.yaml --format m") == []
