"""The input of a call daaain/claude-code-log's HTML has no model for, or whose input its model does
not take (an MCP tool; a Task of Claude Code 1.0.x, without ``subagent_type``), is a table of
parameters (``render_params_table``, ``claude_code_log/html/tool_formatters.py``): a row a key and
its value, a long string folded (the whole of it in the fold, as rendered Markdown), a dict a
nested table. The two tables below are 1.7.0's, cut from the pages it wrote of sessions of mine.

Before: the input was not read: the MCP call's command on gpu01, its failure and the host were lost
(the JSONL reads it as a command), the Task's sub-agent had no description."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from test_hardening63_claude_code_log_html import _FOOT, _HEAD
from test_hardening64_claude_code_log_ids import _card

MCP_PARAMS = """<div class='tool-params-root'><div class='tool-params-controls'><button type='button' class='tool-params-expand-all' data-state='collapsed'><span class='tool-param-fold-glyph'></span><span class='tool-param-fold-label'>expand all</span></button></div><table class='tool-params-table'>
            <tr>
                <td class='tool-param-key'><span class='tool-param-fold-glyph'></span>host</td>
                <td class='tool-param-value'>gpu01</td>
            </tr>
        
            <tr class='tool-param-row-fold'>
                <td class='tool-param-key'><button type='button' class='tool-param-key-toggle' aria-expanded='false'><span class='tool-param-fold-glyph'></span>command</button></td>
                <td class='tool-param-value'>
                    <details class='tool-param-collapsible'>
                        <summary><span class='tool-param-preview'>python -m sglang.bench_serving --backend sglang --num-prompts 200 --request-rate...</span></summary>
                        <div class='tool-param-markdown markdown'><p>python -m sglang.bench_serving --backend sglang --num-prompts 200 --request-rate 8 --dataset-name sharegpt --port 30000</p>
</div>
                    </details>
                </td>
            </tr>
        
            <tr>
                <td class='tool-param-key'><span class='tool-param-fold-glyph'></span>timeout</td>
                <td class='tool-param-value'>600</td>
            </tr>
        
            <tr class='tool-param-row-fold'>
                <td class='tool-param-key'><button type='button' class='tool-param-key-toggle' aria-expanded='false'><span class='tool-param-fold-glyph'></span>env</button></td>
                <td class='tool-param-value'>
                        <details class='tool-param-collapsible'>
                            <summary><span class='tool-param-preview'>{
  &quot;CUDA_VISIBLE_DEVICES&quot;: &quot;0&quot;
}</span></summary>
                            <table class='tool-params-table tool-params-nested'>
            <tr>
                <td class='tool-param-key'><span class='tool-param-fold-glyph'></span>CUDA_VISIBLE_DEVICES</td>
                <td class='tool-param-value'>0</td>
            </tr>
        </table>
                        </details>
                    </td>
            </tr>
        </table></div>"""
TASK_PARAMS = """<table class='tool-params-table'>
            <tr>
                <td class='tool-param-key'><span class='tool-param-fold-glyph'></span>description</td>
                <td class='tool-param-value'>Read the server log</td>
            </tr>
        
            <tr>
                <td class='tool-param-key'><span class='tool-param-fold-glyph'></span>prompt</td>
                <td class='tool-param-value'>Read /var/log/sglang.log on gpu01 and report the accept length</td>
            </tr>
        </table>"""
BENCH = ("python -m sglang.bench_serving --backend sglang --num-prompts 200 --request-rate 8 --dataset-name sharegpt"
         " --port 30000")


def _doc(tmp_path: Path, cards: list[str]) -> dict:
    path = tmp_path / "session-s1.html"
    path.write_text(_HEAD + "".join(cards) + _FOOT, encoding="utf-8")
    return analyze_path(path).to_json()


def test_an_mcp_calls_command(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [
        _card("user", None, "🤷 User", "16:00:00", "<p>Bench gpu01 through the ssh MCP server</p>", "u1"),
        _card("tool_use", "toolu_01MCP", "🛠️ mcp__ssh__exec", "16:01:10", MCP_PARAMS, "u2"),
        _card("tool_result error", "toolu_01MCP", "🚨 Error", "16:01:15",
              "<pre>Exit code 1\nConnectionRefusedError: [Errno 111] Connection refused</pre>", "u3"),
    ])
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [(BENCH, True)]


def test_a_task_without_a_type(tmp_path: Path) -> None:
    doc = _doc(tmp_path, [
        _card("user", None, "🤷 User", "16:00:00", "<p>Find why gpu01 decodes slowly</p>", "u1"),
        _card("tool_use", "toolu_01TASK", "🛠️ Task", "16:00:20", TASK_PARAMS, "u2"),
        _card("tool_use sidechain", "toolu_01SUB1", "💻 Bash <span class='tool-summary'>Tail the log</span>",
              "16:00:22", "<div class='bash-tool-content'><pre class='bash-tool-command'>ssh gpu01 tail -n 50"
              " /var/log/sglang.log</pre></div>", "u3"),
        _card("tool_result sidechain", "toolu_01SUB1", "", "16:00:25", "<pre>accept length: 1.2</pre>", "u4"),
    ])
    assert [(a["spawned_by"], a["description"]) for a in doc["agents"] if a["id"] != "main"] == [
        ("toolu_01TASK", "Read the server log")]
