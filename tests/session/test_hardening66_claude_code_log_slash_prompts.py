"""A prompt command the person typed (``/perf-triage gpu01 sglang``) is their prompt on a
claude-code-log HTML page too, as the session's JSONL reads it (test_hardening65_slash_command_prompts).

claude-code-log 1.7.0 (``--detail full``, recorded here from a session of that shape) renders the
invocation as a "🤷 Slash Command" card (``<code>/perf-triage</code><br><strong>Args:</strong>
gpu01 sglang``: ``format_slash_command_content``; the CLI's "perf-triage is running…" dropped) and
the command's ``isMeta`` expansion as the card after it, "🤷 User (slash command)" (``<div
class="slash-command markdown">``), both of class ``user slash-command``. A builtin (``/model``)
is followed by its output, a ``command-output`` card. Both were skipped: such a page had no prompt."""

from __future__ import annotations

import json
from pathlib import Path

from test_hardening63_claude_code_log_html import _CLOSE, _FOOT, _HEAD, _card

from spec_debug.session import analyze_path

EXPANSION = ('<div class="slash-command markdown"><h1>Perf triage</h1>\n<p>The EAGLE-3 server on gpu01 is slower '
             'than baseline.</p>\n<p>ARGUMENTS: gpu01 sglang</p>\n</div>')


def _page(args: str = "<br><strong>Args:</strong> gpu01 sglang", expansion: str = EXPANSION,
          sidechain: str = "") -> str:
    return "".join([
        _HEAD,
        _card("user slash-command pair_first", "🤷 Slash Command", "10:01:00", "<code>/model</code>", "1"), _CLOSE,
        _card("user command-output pair_last", "", "10:02:00",
              "<pre class='command-output-content'>Set model to opus</pre>", "2"), _CLOSE,
        _card(f"user slash-command{sidechain} pair_first", "🤷 Slash Command", "10:03:00",
              f"<code>/perf-triage</code>{args}", "3"), _CLOSE,
        _card(f"user slash-command{sidechain} pair_last", "🤷 User (slash command)", "10:04:00", expansion, "4"),
        _CLOSE,
        _card("tool_use pair_first", "💻 Bash", "10:05:00",
              "<div class='bash-tool-content'><pre class='bash-tool-command'>ssh gpu01 &#x27;ps aux | grep sglang&#x27;"
              "</pre></div>", "5"), _CLOSE,
        _card("tool_result pair_last", "", "10:06:00", "<pre>root 1 python</pre>", "6"), _CLOSE,
        _CLOSE, _FOOT,
    ])


def _prompts(tmp_path: Path, page: str) -> list[str]:
    path = tmp_path / "transcript.html"
    path.write_text(page, encoding="utf-8")
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def _jsonl_prompts(tmp_path: Path) -> list[str]:
    def user(content, **extra):
        return {"type": "user", "sessionId": "s", "cwd": "/r", "version": "2.0.22", "timestamp": "2026-03-02T10:00:00Z",
                "message": {"role": "user", "content": content}, **extra}

    lines = [
        user("<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"),
        user("<local-command-stdout>Set model to opus</local-command-stdout>"),
        user("<command-message>perf-triage is running…</command-message>\n<command-name>/perf-triage</command-name>\n"
             "<command-args>gpu01 sglang</command-args>"),
        user([{"type": "text", "text": "# Perf triage\n\nARGUMENTS: gpu01 sglang"}], isMeta=True),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_a_typed_prompt_command_is_the_prompt_the_jsonl_gives(tmp_path: Path) -> None:
    assert _prompts(tmp_path, _page()) == ["/perf-triage gpu01 sglang"] == _jsonl_prompts(tmp_path)
    assert _prompts(tmp_path, _page(args="")) == ["/perf-triage"]
    assert _prompts(tmp_path, _page(args="<br><strong>Args:</strong> explain &lt;Component&gt;")) == [
        "/perf-triage explain <Component>"]


def test_a_command_with_no_expansion_after_it_is_no_prompt(tmp_path: Path) -> None:
    # a builtin followed by its output, one followed by nothing of its own, a sub-agent's
    assert _prompts(tmp_path, _page(expansion="<pre class='command-output-content'>ok</pre>")) == []
    assert _prompts(tmp_path, _page(sidechain=" sidechain")) == []
