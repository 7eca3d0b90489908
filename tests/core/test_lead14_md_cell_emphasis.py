"""A step message in the report's tables shows globs and dunder names as written: "/data/*.safetensors
... /x/*.bin" rendered as italics between the two stars, `__pycache__` as bold pycache."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from spec_debug.report.render import md_cell


def rendered_cell(value: str) -> tuple[str, list[str]]:
    tokens = MarkdownIt("commonmark").enable("table").parse(f"| message |\n|---|\n| {md_cell(value)} |\n")
    inline = next(t for t in tokens if t.type == "inline" and t.map and t.map[0] == 2)
    kinds = [child.type for child in inline.children or []]
    text = "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
    return text, kinds


@pytest.mark.parametrize("message", [
    "copied /data/*.safetensors to /x/*.bin",
    "stale __pycache__ in /opt/sglang/__init__.py",
    "spec_decode_num_drafts_total is 0 | see *all* hosts",
    "`a*b_` kept as code, *and* this",
])
def test_a_message_cell_is_its_own_text(message):
    text, kinds = rendered_cell(message)
    assert "em_open" not in kinds and "strong_open" not in kinds, kinds
    assert text == message.replace("`", "")


def test_snake_case_stays_readable_in_the_raw_file():
    assert md_cell("speculative_num_steps=1 and spec_decode") == "speculative_num_steps=1 and spec_decode"
