"""A call's result in daaain/claude-code-log's HTML page is known by the call's id, which the page
carries on both cards' titles (``<span title="ID: toolu_...">``: ``TemplateMessage.title_hint`` in
``claude_code_log/renderer.py``; seen in pages claude-code-log 0.9.0 and 1.7.0 rendered from a
session whose first command never got a result, killed while it ran and resumed).

Before: results were paired with calls by order, so the hung command took the next command's
result (the bench on gpu01 "failed" with gpu02's "Connection refused", gpu02's check passed with
the listing's output), and a result whose call the page left out was lost (claude-code-log's
``deduplicate_messages``, converter.py, drops the second of two parallel calls whose lines share
the timestamp and message id, as a "version stutter", and keeps both results)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from test_hardening63_claude_code_log_html import _CLOSE, _FOOT, _HEAD


def _card(cls: str, call_id: str | None, title: str, stamp: str, content: str, uid: str) -> str:
    """A card as 1.7.0 writes it (``transcript.html``): the call's id on the title's span."""
    hint = f' title="ID: {call_id}"' if call_id else ""
    return f"""    <div class='message-node'>
    <div class='message {cls}' data-uuid='{uid}' id='msg-d-{uid}'>
        <div class='header'>
            <span{hint}>{title}</span>
            <div class='header-info'>
                <div class='timestamp-row'>
                    <span class='timestamp' data-timestamp='2025-07-03T{stamp}.000Z'>2025-07-03 {stamp}</span>
                </div>
            </div>
        </div>
        <div class='content'>{content}</div>
    </div>
""" + _CLOSE


def _bash(call_id: str | None, said: str, command: str, stamp: str, uid: str) -> str:
    return _card("tool_use", call_id, f"💻 Bash <span class='tool-summary'>{said}</span>", stamp,
                 f"<div class='bash-tool-content'><pre class='bash-tool-command'>{command}</pre></div>", uid)


def _user(said: str, stamp: str, uid: str) -> str:
    return _card("user", None, "🤷 User", stamp, f"<p>{said}</p>", uid)


def _result(call_id: str | None, text: str, stamp: str, uid: str, error: bool = False) -> str:
    return _card("tool_result error" if error else "tool_result", call_id, "🚨 Error" if error else "", stamp,
                 f"<pre>{text}</pre>", uid)


def _commands(tmp_path: Path, cards: list[str]) -> dict:
    path = tmp_path / "session-s1.html"
    path.write_text(_HEAD + "".join(cards) + _FOOT, encoding="utf-8")
    return analyze_path(path).to_json()


def _resumed() -> list[str]:
    return [
        _user("Benchmark EAGLE-3 on gpu01", "16:00:00", "u1"),
        _bash("toolu_01HANG", "Bench gpu01", "ssh gpu01 python -m sglang.bench_serving", "16:00:10", "u2"),
        _user("The bench hung; check gpu02 instead", "16:05:00", "u3"),
        _bash("toolu_01GPU2", "GPUs on gpu02", "ssh gpu02 nvidia-smi", "16:05:10", "u4"),
        _result("toolu_01GPU2", "Exit code 255\nssh: connect to host gpu02 port 22: Connection refused",
                "16:05:15", "u5", error=True),
        _bash("toolu_01LS", "List", "ls /srv", "16:05:20", "u6"),
        _result("toolu_01LS", "models\nlogs", "16:05:21", "u7"),
    ]


def test_a_command_that_never_got_its_result_takes_no_other(tmp_path: Path) -> None:
    doc = _commands(tmp_path, _resumed())
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("ssh gpu01 python -m sglang.bench_serving", False),
        ("ssh gpu02 nvidia-smi", True),
        ("ls /srv", False),
    ]
    assert [(e["kind"], e["seq"]) for e in doc["errors"]] == [
        ("connection", next(c["seq"] for c in doc["commands"] if c["command"] == "ssh gpu02 nvidia-smi") + 1)]


def test_a_result_whose_call_the_page_left_out(tmp_path: Path) -> None:
    """Two calls at once whose lines share a timestamp: 1.7.0 wrote the first's card and both
    results, the second's after."""
    doc = _commands(tmp_path, [
        _user("Compare the hosts", "16:00:00", "u1"),
        _bash("toolu_01AAAA", "GPUs on gpu01", "ssh gpu01 nvidia-smi", "16:00:11", "u2"),
        _result("toolu_01AAAA", "NVIDIA H100 80GB HBM3", "16:00:16", "u4"),
        _result("toolu_01BBBB", "Exit code 255\nssh: connect to host gpu02 port 22: Connection refused",
                "16:00:15", "u3", error=True),
        _bash("toolu_01CCCC", "Bench gpu01", "ssh gpu01 python -m sglang.bench_serving", "16:00:41", "u5"),
    ])
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("ssh gpu01 nvidia-smi", False), ("ssh gpu01 python -m sglang.bench_serving", False)]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("connection", "ssh: connect to host gpu02 port 22: Connection refused")]

