"""A parameter's value on a claude-code-log page, as the renderer writes it (``str(value)``:
``_render_params`` in ``claude_code_log/markdown/renderer.py``, the HTML's table cells): read back
as the bool or int it was, else as the string it is. Parameters are read since 39866b1e (Markdown)
and 3f32c3af (HTML).

Before: a value ``str.isdigit`` calls digits but ``int`` refuses ("²", a superscript the model
wrote in a parameter) stopped the whole read with a ValueError, and "0755" (a file mode) was read
as the int 755."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats.claude_code_log_md import scalar

from test_hardening64_claude_code_log_generic import MARKDOWN


@pytest.mark.parametrize(("shown", "value"), [
    ("600", 600), ("0", 0), ("True", True), ("False", False), ("0755", "0755"), ("²", "²"), ("1e3", "1e3"),
    ("-1", "-1"), ("gpu01", "gpu01")])
def test_a_shown_value(shown: str, value: object) -> None:
    assert scalar(shown) == value and type(scalar(shown)) is type(value)


def test_a_page_with_such_a_value_is_read(tmp_path: Path) -> None:
    path = tmp_path / "session-s1.md"
    path.write_text(MARKDOWN.replace("**host:** `gpu01`", "**host:** `gpu01`\n\n**label:** `x²`\n\n**power:** `²`", 1),
                    encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu01 tail -n 50 /var/log/sglang.log", "nvidia-smi"]
