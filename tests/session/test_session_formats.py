"""Formats besides the samples: [msg N] and shell-prompt logs, Markdown, Aider, OpenAI chat
(array, wrapped, JSONL; arguments as string or object), Codex exit codes, older Claude Code
layouts (inline sidechains, agent files beside the session)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.sources import detect_format

# [msg 4399]..[msg 4402] of the incident, as quoted in INCIDENT.md (the traceback is cut there too).
INCIDENT_EXCERPT = """\
[msg 4399] assistant: Running the standalone test again.
[bash] ssh root@10.1.230.174 '~/ml-env/bin/python /tmp/test_drafter_standalone.py'
[msg 4400] Traceback (most recent call last):
  File "/tmp/test_drafter_standalone.py", line 291, in <module>
    load_and_test()
  File "/tmp/test_drafter_standalone.py", line 79, in load_and_test
    q = F.linear(attn_input, w["midlayer.self_attn.q_proj.weight"])
        ^^^^^^^^^^^^^
[msg 4401] Right — I compute attn_input first, then concatenate. But the code tries to use the wrong variable. The issue is that my code computes attn_input (the normed version) before the concat. Let me check the actual speculators code to get the exact forward pass right: [bash] ssh root@10.1.230.174 'grep -n "def forward\\|hidden\\|fc\\|cat\\|attn\\|norm\\|residual\\|mlp" ~/ml-env/lib/python3.12/site-packages/speculators/models/eagle3/core.py | head -60'
[msg 4402] 357:        hidden_states = torch.cat([input_embeds, hidden_states], dim=-1)
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_msg_numbered_log_keeps_the_numbers_and_finds_the_pivot(tmp_path):
    a = analyze_path(_write(tmp_path, "incident.txt", INCIDENT_EXCERPT))
    assert a.format == "text"
    assert [(c.seq, c.host, c.category, c.is_error) for c in a.commands] == [
        (4399, "10.1.230.174", "run_test", True), (4401, "10.1.230.174", "read_source", False)]
    (error,) = a.errors
    assert (error.seq, error.kind, error.exception, error.file, error.line) == (
        4400, "traceback", None, "/tmp/test_drafter_standalone.py", 79)  # truncated: no exception line
    assert [(p.seq, p.trigger_seq, p.to_category) for p in a.pivots] == [(4401, 4400, "read_source")]
    assert a.commands[1].why.startswith("Right — I compute attn_input first")
    playbook = distill_playbook(a)
    assert [s["provenance"]["seq"] for s in playbook["steps"]] == [4399, 4401]


def test_shell_prompt_log(tmp_path):
    log = """\
me@laptop:~$ ssh -p 2222 ubuntu@gpu-node-3 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
root@gpu-node-3:~# python -m sglang.launch_server --model-path /m --speculative-num-steps 1 --port 30000
[2026-03-02 08:10:00 TP0] Decode batch, #running-req: 1, #token: 90, token usage: 0.01, accept len: 1.50, accept rate: 0.40, cuda graph: True, gen throughput (token/s): 40.00, #queue-req: 0
root@gpu-node-3:~# curl localhost:30000/health
curl: (7) Failed to connect to localhost port 30000: Connection refused
$ echo done
done
"""
    a = analyze_path(_write(tmp_path, "shell.log", log))
    assert [(c.seq, c.host, c.is_error) for c in a.commands] == [
        (0, "gpu-node-3", False), (1, "gpu-node-3", False), (2, "gpu-node-3", True), (3, None, False)]
    assert [(e.seq, e.kind) for e in a.errors] == [(2, "connection")]
    assert [(m.name, m.value, m.host) for m in a.metrics] == [
        ("throughput", 40.0, "gpu-node-3"), ("accept_length", 1.5, "gpu-node-3"), ("accept_rate", 0.4, "gpu-node-3")]
    assert [f.code for f in a.findings] == ["SD101"]


def test_markdown_and_aider(tmp_path):
    md = """\
# Debugging the draft

## Launch flags

We saw 54.8 tok/s against a 90 tok/s baseline.

```bash
ssh gpu01 'ps aux | grep sglang'
```

```text
root 1 python -m sglang.launch_server --speculative-num-steps 1
```

#### why is it still slow?
> Tokens: 1.2k sent
"""
    a = analyze_path(_write(tmp_path, "notes.md", md))
    assert [(c.host, c.command) for c in a.commands] == [("gpu01", "ssh gpu01 'ps aux | grep sglang'")]
    assert {f.code for f in a.findings} == {"SD101", "SD501"}
    assert [s.title for s in a.segments][:2] == ["Debugging the draft", "Launch flags — Inspecting processes on gpu01"]
    assert [p.text for p in a.prompts] == ["why is it still slow?"]


CHAT = [
    {"role": "system", "content": "You are a helper"},
    {"role": "user", "content": "The draft claims 74.7% validation accuracy; check it on gpu01"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": "ssh gpu01 'python eval_standalone.py'"})}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "top-1 accuracy: 31.0%"},
    # Ollama-style: arguments as an object, no call id
    {"role": "assistant", "tool_calls": [{"type": "function", "function": {
        "name": "shell", "arguments": {"cmd": ["bash", "-lc", "ssh -J jump gpu02 nvidia-smi"]}}}]},
    {"role": "tool", "content": "Exit code 255\nssh: connect to host gpu02 port 22: Connection refused"},
]


@pytest.mark.parametrize("layout", ["array", "wrapped", "jsonl"])
def test_openai_chat_layouts(tmp_path, layout):
    if layout == "array":
        text = json.dumps(CHAT, indent=2)
    elif layout == "wrapped":
        text = json.dumps({"model": "m", "messages": CHAT})
    else:
        text = "\n".join(json.dumps(m) for m in CHAT) + "\n"
    a = analyze_path(_write(tmp_path, f"chat.{'jsonl' if layout == 'jsonl' else 'json'}", text))
    assert a.format == "openai"
    assert [(c.seq, c.host, c.jump, c.exit_code, c.is_error) for c in a.commands] == [
        (2, "gpu01", None, None, False), (4, "gpu02", "jump", 255, True)]
    assert [(m.name, m.value) for m in a.metrics] == [("validation_accuracy", 74.7), ("standalone_accuracy", 31.0)]
    assert [(f.code, f.seq) for f in a.findings] == [("SD401", 3)]
    assert [(e.seq, e.kind) for e in a.errors] == [(5, "connection")]


def test_codex_exit_codes(tmp_path):
    lines = [
        {"type": "session_meta", "payload": {"id": "x", "cwd": "/w"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "call_id": "a",
                                              "arguments": json.dumps({"command": ["bash", "-lc", "ssh gpu3 nvidia-smi"]})}},
        {"type": "event_msg", "payload": {"type": "exec_command_end", "call_id": "a", "exit_code": 124,
                                          "aggregated_output": "", "stdout": "", "stderr": ""}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "a", "output": "late duplicate"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "call_id": "b",
                                              "arguments": json.dumps({"cmd": "python t.py"})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "b", "output": json.dumps(
            {"output": "Traceback (most recent call last):\n  File \"t.py\", line 2, in <module>\nKeyError: 'd2t'\n",
             "metadata": {"exit_code": 1}})}},
    ]
    a = analyze_path(_write(tmp_path, "rollout.jsonl", "\n".join(json.dumps(x) for x in lines)))
    assert a.format == "codex"
    assert [(c.host, c.command, c.exit_code) for c in a.commands] == [
        ("gpu3", "ssh gpu3 nvidia-smi", 124), (None, "python t.py", 1)]
    assert [(e.kind, e.exception, e.line) for e in a.errors] == [("timeout", None, None), ("traceback", "KeyError", 2)]
    assert [f.code for f in a.findings] == ["SD301"]


def _cc(kind: str, n: int, content, **extra) -> str:
    return json.dumps({"type": kind, "uuid": f"u{n}", "sessionId": "s1", "timestamp": f"2025-01-01T00:00:{n:02d}Z",
                       "isSidechain": False, "message": {"role": "assistant" if kind == "assistant" else "user",
                                                         "content": content}, **extra})


def test_older_inline_sidechains(tmp_path):
    lines = [
        _cc("user", 0, [{"type": "text", "text": "audit the flags"}]),
        _cc("assistant", 1, [{"type": "tool_use", "id": "task1", "name": "Task", "input": {"description": "flags", "prompt": "go"}}]),
        _cc("user", 2, "go", isSidechain=True),
        _cc("assistant", 3, [{"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": "ssh gpu5 ps"}}], isSidechain=True),
        _cc("user", 4, [{"type": "tool_result", "tool_use_id": "b1", "content": "Exit code 1\n", "is_error": True}], isSidechain=True),
        _cc("user", 5, [{"type": "tool_result", "tool_use_id": "task1", "content": "done"}]),
    ]
    a = analyze_path(_write(tmp_path, "s1.jsonl", "\n".join(lines)))
    agents = {ag["id"]: (ag["parent"], ag["events"], ag["tool_calls"], ag["status"]) for ag in a.agents}
    assert agents == {"main": (None, 3, 1, "completed"), "sidechain-task1": ("main", 3, 1, "failed")}
    assert [(c.agent, c.host) for c in a.commands] == [("sidechain-task1", "gpu5")]


def test_cli_2_0_agent_file_beside_the_session(tmp_path):
    session = [
        _cc("assistant", 0, [{"type": "tool_use", "id": "t9", "name": "Task", "input": {"description": "d"}}]),
        _cc("user", 1, [{"type": "tool_result", "tool_use_id": "t9", "content": "ok"}], agentId="ab12"),
    ]
    _write(tmp_path, "s1.jsonl", "\n".join(session))
    _write(tmp_path, "agent-ab12.jsonl", json.dumps({"type": "user", "sessionId": "s1", "isSidechain": True,
                                                      "agentId": "ab12", "message": {"role": "user", "content": "d"}}))
    _write(tmp_path, "agent-zz99.jsonl", json.dumps({"type": "user", "sessionId": "other", "isSidechain": True,
                                                      "agentId": "zz99", "message": {"role": "user", "content": "d"}}))
    a = analyze_path(tmp_path / "s1.jsonl")
    assert {ag["id"]: ag["parent"] for ag in a.agents} == {"main": None, "ab12": "main"}


def test_forced_input_format_and_detection(tmp_path):
    path = _write(tmp_path, "x.jsonl", json.dumps({"role": "user", "content": "hi"}) + "\n")
    assert detect_format(path) == ("openai", False)
    assert analyze_path(path, "text").format == "text"
    assert detect_format(_write(tmp_path, "y.txt", "[msg 1] hello\n")) == ("text", False)


def test_distill_with_nothing_that_mattered_is_a_usage_error(tmp_path):
    a = analyze_path(_write(tmp_path, "plain.txt", "just some notes\n"))
    with pytest.raises(UsageError, match="nothing to distill"):
        distill_playbook(a)


def test_html_postmortem_escapes_transcript_text(tmp_path):
    from spec_debug.session.postmortem import render_postmortem

    chat = [{"role": "user", "content": "why <script>alert(1)</script> slow? 50 tok/s vs a 90 tok/s baseline"}]
    a = analyze_path(_write(tmp_path, "x.json", json.dumps(chat)))
    html = render_postmortem(a, "html")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '<a href="#msg-0">[msg 0]</a>' in html and 'id="msg-0"' in html


def test_distilled_vars_never_take_a_built_in_template_name():
    # A path ending in /stdout or /steps must not become a var named like the templates' own
    # names: the playbook loader refuses those, and distill must write a valid playbook.
    from spec_debug.playbook.templating import CONTEXT_NAMES
    from spec_debug.session.distill import _VarNames

    names = _VarNames()
    given = [names.name(word, f"/srv/run/{word}") for word in sorted(CONTEXT_NAMES)]
    assert not set(given) & CONTEXT_NAMES
    assert names.name("stdout", "/srv/run/stdout") == given[sorted(CONTEXT_NAMES).index("stdout")]  # stable
