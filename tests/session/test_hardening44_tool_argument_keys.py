"""OpenAI chat tool calls of a shell tool that takes its command under another key than
``command``/``cmd``: LangChain's ShellTool (named ``terminal``) takes ``commands``, a string or a
list (langchain-ai/langchain ``libs/community/langchain_community/tools/shell/tool.py``,
``ShellInput``), tools written as ``def bash(script: str)`` a ``script``, free-form ones an
``input``. The call had no command at all: no host, no category, nothing distilled."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _session(tmp_path: Path, calls: list[tuple[str, dict]]) -> Path:
    messages: list[dict] = [{"role": "user", "content": "Why does the EAGLE-3 server on gpu01 fail?"}]
    for n, (name, args) in enumerate(calls):
        messages.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{n}", "content": "ok"})
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": messages}))
    return path


def test_a_shell_tool_command_under_other_keys_is_read(tmp_path: Path) -> None:
    path = _session(tmp_path, [
        ("bash", {"script": "nvidia-smi"}),
        ("terminal", {"commands": ["ssh gpu01 nvidia-smi", "ls"]}),
        ("terminal", {"commands": "ssh gpu02 df -h"}),
        ("shell", {"input": "python -m sglang.launch_server --model m --speculative-algorithm EAGLE3"}),
        ("run_command", {"cmd": ["bash", "-lc", "pip list"]}),
    ])
    assert [(c.command, c.host, c.category) for c in analyze_path(path).commands] == [
        ("nvidia-smi", None, "gpu_status"),
        ("ssh gpu01 nvidia-smi; ls", "gpu01", "gpu_status"),
        ("ssh gpu02 df -h", "gpu02", "other"),
        ("python -m sglang.launch_server --model m --speculative-algorithm EAGLE3", None, "launch_server"),
        ("pip list", None, "other"),
    ]


def test_other_tools_keys_are_no_command(tmp_path: Path) -> None:
    # a search tool's "query", a Python tool's "input": no shell command ran
    path = _session(tmp_path, [("web_search", {"query": "sglang eagle3 accept length"}),
                               ("python", {"input": "print(1)"})])
    assert analyze_path(path).commands == []
