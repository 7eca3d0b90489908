"""--input-format names the formats the analyzer added in session 12 (droid, grok, opencode):
forcing one on another format's file is one clear usage error, spelt as English spells it."""

from __future__ import annotations

import pytest

from spec_debug.errors import UsageError
from spec_debug.session.format_names import input_format_name
from spec_debug.session.sources import discover


@pytest.mark.parametrize(("name", "said"), [
    ("opencode", "it is not an OpenCode session"),
    ("grok", "it is not a Grok CLI session"),
    ("droid", "it is not a Factory Droid exec stream session"),
])
def test_forcing_a_self_named_format_on_openai_chat_is_refused(tmp_path, name, said):
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"role": "user", "content": "why is the accept length 1?"}\n', encoding="utf-8")
    with pytest.raises(UsageError) as refused:
        discover(chat, name)
    assert said in str(refused.value) and "(it reads as openai)" in str(refused.value)


def test_the_tools_own_names_are_taken():
    assert [input_format_name(n) for n in ("Factory_Droid", "grok-cli", "open-code")] == ["droid", "grok", "opencode"]
