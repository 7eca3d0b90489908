"""Layouts real sessions leave on disk that the first readers got wrong: Claude Code Workflow
runs, Codex sub-agent rollouts, logs a Windows shell saved as UTF-16.

Each case is analyzed through the real CLI as JSON and as Markdown, and the extracted values
are asserted exactly. Sources of each shape are named in the test.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts" / "real_variants"
WORKFLOW_SESSION = "22220000-0000-4000-8000-000000000002"


def _fixture(name: str, into: Path) -> Path:
    """Write out ``real_variants/<name>.fixture`` (``{relative path: text}``) under ``into``."""
    files = json.loads((DATA / f"{name}.fixture").read_text(encoding="utf-8"))
    for rel, text in files.items():
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        (into / rel).write_text(text, encoding="utf-8")
    return into


def _workflow(tmp_path: Path) -> Path:
    return _fixture("workflow_scriptpath", tmp_path / "-repo")


def _both_formats(cli, path: Path, tmp_path: Path) -> tuple[dict, str]:
    out = tmp_path / "analysis.json"
    result = cli("analyze", str(path), "--format", "json", "-o", str(out))
    assert result.code == 0 and "Traceback" not in result.stderr, result.stderr
    md = cli("analyze", str(path), "--format", "md")
    assert md.code == 0 and "Traceback" not in md.stderr, md.stderr
    return json.loads(out.read_text()), md.stdout


def _tree(doc: dict) -> list[tuple]:
    return [(a["id"], a["parent"], a["spawned_by"], a["type"], a["events"], a["status"]) for a in doc["agents"]]


# -- Claude Code Workflow runs (daaain/claude-code-log test/test_data/workflow_scriptpath) -----

def test_workflow_agents_hang_under_their_run_and_the_call_that_launched_it(cli, tmp_path):
    doc, md = _both_formats(cli, _workflow(tmp_path), tmp_path)
    assert _tree(doc) == [
        ("main", None, None, "", 7, "completed"),
        ("workflow:wf_sp01", "main", "toolu_wfsp01", "workflow", 0, "completed"),
        ("agsp0001", "workflow:wf_sp01", "toolu_wfsp01", "workflow-subagent", 2, "completed"),
        # Died before starting an agent: only its snapshot says so (workflows/wf_fail01.json).
        ("workflow:wf_fail01", "main", "toolu_wffail01", "workflow", 0, "failed"),
    ]
    assert doc["sessions"][0]["missing_agent_files"] == []
    assert doc["stats"]["events"] == 9 and doc["stats"]["lines_skipped"] == 0
    agent = next(a for a in doc["agents"] if a["id"] == "agsp0001")
    assert (agent["first_seq"], agent["last_seq"]) == (5, 6)
    assert "| agsp0001 | workflow:wf_sp01 | toolu_wfsp01 | 2 | 0 | 0 | completed |" in md
    assert "| workflow:wf_fail01 | main | toolu_wffail01 | 0 | 0 | 0 | failed |" in md


def test_a_workflow_run_nothing_launched_is_its_agents_parent_not_an_orphan(tmp_path):
    # The trunk was cut before its Workflow call (a session still being written, or pruned):
    # the run folder alone still says which agents belong together.
    project = _workflow(tmp_path)
    session = project / f"{WORKFLOW_SESSION}.jsonl"
    session.write_text(session.read_text().splitlines()[0] + "\n")
    (project / WORKFLOW_SESSION / "workflows" / "wf_sp01.json").unlink()
    doc = analyze_path(session).to_json()
    assert _tree(doc) == [
        ("main", None, None, "", 1, "completed"),
        # No snapshot, and the journal has a result for every agent it started.
        ("workflow:wf_sp01", None, None, "workflow", 0, "completed"),
        ("agsp0001", "workflow:wf_sp01", None, "workflow-subagent", 2, "completed"),
        ("workflow:wf_fail01", None, None, "workflow", 0, "failed"),
    ]


def test_a_workflow_run_still_going_is_running(tmp_path):
    project = _workflow(tmp_path)
    session_dir = project / WORKFLOW_SESSION
    (session_dir / "workflows" / "wf_sp01.json").unlink()  # written only when the run ends
    journal = session_dir / "subagents" / "workflows" / "wf_sp01" / "journal.jsonl"
    journal.write_text(journal.read_text().splitlines()[0] + "\n")  # started, no result yet
    doc = analyze_path(project).to_json()
    run = next(a for a in doc["agents"] if a["id"] == "workflow:wf_sp01")
    assert (run["parent"], run["status"]) == ("main", "running")


def test_a_workflow_run_referenced_but_not_on_disk_is_reported_missing(tmp_path):
    project = _workflow(tmp_path)
    shutil.rmtree(project / WORKFLOW_SESSION)
    doc = analyze_path(project / f"{WORKFLOW_SESSION}.jsonl").to_json()
    assert [(a["id"], a["parent"], a["status"]) for a in doc["agents"]] == [
        ("main", None, "completed"), ("workflow:wf_sp01", "main", "missing"),
        ("workflow:wf_fail01", "main", "missing"),
    ]
    assert doc["sessions"][0]["missing_agent_files"] == [
        "subagents/workflows/wf_sp01/", "subagents/workflows/wf_fail01/"]


# -- Logs saved by Windows PowerShell: UTF-16LE with a byte-order mark, CRLF ----------------------
# Windows PowerShell 5.1 writes ">" and Out-File as "Unicode" (UTF-16LE with a BOM) by default
# (Microsoft Learn: about_Redirection, about_Character_Encoding).

POWERSHELL_LOG = r"""PS C:\Users\mei> ssh -p 2222 root@gpu01 "python3 -m sglang.bench_serving --backend sglang --num-prompts 64"
============ Serving Benchmark Result ============
Successful requests:                     64
Output token throughput (tok/s):         54.8
Accept length:                           1.02
==================================================
PS C:\Users\mei> ssh -p 2222 root@gpu01 "python3 /root/test_eagle3.py"
Traceback (most recent call last):
  File "/root/test_eagle3.py", line 41, in <module>
    out = draft(hidden)
  File "/root/eagle3/model.py", line 88, in forward
    h = torch.cat([low, mid, high], dim=-1)
RuntimeError: Sizes of tensors must match except in dimension 2. Expected size 4096 but got size 2048 for tensor number 1 in the list.
"""


def test_a_utf16_powershell_log_is_read_like_its_utf8_copy(cli, tmp_path):
    log = tmp_path / "bench.log"
    log.write_bytes(POWERSHELL_LOG.replace("\n", "\r\n").encode("utf-16"))  # BOM + UTF-16LE
    assert log.read_bytes()[:4] == b"\xff\xfeP\x00"
    doc, md = _both_formats(cli, log, tmp_path)
    assert doc["stats"]["binary"] == 0 and doc["stats"]["lines_skipped"] == 0
    assert [(c["seq"], c["host"], c["command"]) for c in doc["commands"]] == [
        (0, "gpu01", 'ssh -p 2222 root@gpu01 "python3 -m sglang.bench_serving --backend sglang --num-prompts 64"'),
        (1, "gpu01", 'ssh -p 2222 root@gpu01 "python3 /root/test_eagle3.py"'),
    ]
    assert [(e["seq"], e["exception"], e["file"], e["line"]) for e in doc["errors"]] == [
        (1, "RuntimeError", "/root/eagle3/model.py", 88)]
    assert [(m["seq"], m["name"], m["value"], m["unit"], m["host"]) for m in doc["metrics"]] == [
        (0, "throughput", 54.8, "tok/s", "gpu01"), (0, "accept_length", 1.02, "tokens", "gpu01")]
    assert "RuntimeError" in md and "54.8" in md

    utf8 = tmp_path / "utf8" / "bench.log"
    utf8.parent.mkdir()
    utf8.write_bytes(POWERSHELL_LOG.replace("\n", "\r\n").encode("utf-8"))
    same = analyze_path(utf8).to_json()
    for key in ("commands", "errors", "metrics", "segments"):
        def where_left_out(records: list[dict], path: Path) -> list[dict]:
            return [{k: v for k, v in r.items() if v != str(path)} for r in records]
        assert where_left_out(doc[key], log) == where_left_out(same[key], utf8), key


def test_utf16_jsonl_and_json_arrays_are_read_in_every_format(tmp_path):
    # `codex exec --json ... > run.jsonl` or `Get-Content a.json | Out-File b.json` on Windows.
    codex = [
        {"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
         "payload": {"id": "11111111-1111-4111-8111-111111111111", "cwd": "C:\\work", "cli_version": "0.46.0"}},
        {"timestamp": "2026-01-02T03:04:09.000Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "shell", "call_id": "call_1",
                     "arguments": json.dumps({"command": ["bash", "-lc", "ssh gpu01 nvidia-smi"]})}},
        {"timestamp": "2026-01-02T03:04:10.000Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "call_1",
                     "output": json.dumps({"output": "ssh: Could not resolve hostname gpu01",
                                           "metadata": {"exit_code": 255}})}},
    ]
    rollout = tmp_path / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
    rollout.write_bytes("\r\n".join(json.dumps(x) for x in codex).encode("utf-16") + "\r\n".encode("utf-16-le"))
    chat = tmp_path / "chat.json"
    chat.write_bytes(json.dumps([
        {"role": "user", "content": "check the GPU"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_9", "type": "function", "function": {"name": "bash",
                                                            "arguments": "{\"command\": \"ssh gpu02 nvidia-smi\"}"}}]},
        {"role": "tool", "tool_call_id": "call_9", "content": "Exit code 1\nNVIDIA-SMI has failed"},
    ], indent=1).encode("utf-16"))
    doc = analyze_path(tmp_path).to_json()
    assert [(s["id"], s["format"], s["events"], s["binary"], s["broken_json"]) for s in doc["sessions"]] == [
        ("chat", "openai", 3, 0, 0),
        ("rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111", "codex", 3, 0, 0),
    ]
    assert [(c["host"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("gpu02", "ssh gpu02 nvidia-smi", 1), ("gpu01", "ssh gpu01 nvidia-smi", 255)]


# -- Codex sub-agent threads: a rollout each, the child naming its parent --------------------------

PARENT = "019a1111-aaaa-7aaa-8aaa-000000000001"
CHILD = "019a1111-bbbb-7bbb-8bbb-000000000002"


def _rl(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-05-12T08:{ts}.000Z", "type": kind, "payload": payload}


def _exec(ts: str, call_id: str, cmd: str) -> dict:
    return _rl(ts, "response_item", {"type": "function_call", "name": "exec_command", "call_id": call_id,
                                     "arguments": json.dumps({"cmd": cmd})})


def _exec_out(ts: str, call_id: str, output: str, code: int) -> dict:
    return _rl(ts, "response_item", {"type": "function_call_output", "call_id": call_id,
                                     "output": json.dumps({"output": output, "metadata": {"exit_code": code}})})


def _user_msg(ts: str, text: str) -> dict:
    return _rl(ts, "response_item", {"type": "message", "role": "user",
                                     "content": [{"type": "input_text", "text": text}]})


PARENT_META = _rl("00:00", "session_meta", {"id": PARENT, "cwd": "/work", "originator": "codex_cli_rs",
                                            "cli_version": "0.58.0", "source": "cli"})
PARENT_HEAD = [
    PARENT_META,
    _rl("00:01", "turn_context", {"turn_id": "t1", "model": "gpt-5.1-codex", "cwd": "/work"}),
    _user_msg("00:02", "EAGLE-3 is slower than the baseline on gpu01; find out why"),
    _exec("00:03", "call_bench", "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang'"),
    _exec_out("00:04", "call_bench", "Output token throughput (tok/s):         54.8", 0),
]
PARENT_ROLLOUT = PARENT_HEAD + [
    # The multi-agent tool: its output and the UI event name the new thread.
    _rl("00:05", "response_item", {"type": "function_call", "name": "spawn_agent", "call_id": "call_spawn",
                                   "arguments": json.dumps({"message": "check the GPUs on gpu01",
                                                            "agent_type": "worker"})}),
    _rl("00:06", "response_item", {"type": "function_call_output", "call_id": "call_spawn",
                                   "output": json.dumps({"agent_id": CHILD, "nickname": "Hypatia"})}),
    _rl("00:06", "event_msg", {"type": "collab_agent_spawn_end", "call_id": "call_spawn",
                               "sender_thread_id": PARENT, "new_thread_id": CHILD, "prompt": "check the GPUs"}),
]
CHILD_ROLLOUT = [
    _rl("00:05", "session_meta", {
        "id": CHILD, "forked_from_id": PARENT, "cwd": "/work", "cli_version": "0.58.0",
        "agent_nickname": "Hypatia", "agent_role": "worker",
        "source": {"subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1,
                                                 "agent_nickname": "Hypatia", "agent_role": "worker"}}}}),
    # The parent's history, copied at the head of the child's rollout.
    *[{**line, "timestamp": "2026-05-12T08:00:05.000Z"} for line in PARENT_HEAD],
    _rl("00:07", "turn_context", {"turn_id": "t2", "model": "gpt-5.1-codex", "cwd": "/work"}),
    _rl("00:07", "event_msg", {"type": "task_started", "turn_id": "t2"}),
    _user_msg("00:07", "check the GPUs on gpu01"),
    _exec("00:08", "call_smi", "ssh gpu01 nvidia-smi"),
    _exec_out("00:09", "call_smi", "ssh: connect to host gpu01 port 22: Connection refused", 255),
]


def _rollouts(tmp_path: Path, *which: str) -> Path:
    day = tmp_path / "sessions" / "2026" / "05" / "12"
    day.mkdir(parents=True)
    for name, lines, thread in (("parent", PARENT_ROLLOUT, PARENT), ("child", CHILD_ROLLOUT, CHILD)):
        if name in which:
            path = day / f"rollout-2026-05-12T08-00-0{0 if name == 'parent' else 5}-{thread}.jsonl"
            path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return tmp_path / "sessions"


def test_a_codex_sub_agent_rollout_is_an_agent_of_its_parent_session(cli, tmp_path):
    doc, md = _both_formats(cli, _rollouts(tmp_path, "parent", "child"), tmp_path)
    assert [s["id"] for s in doc["sessions"]] == [f"rollout-2026-05-12T08-00-00-{PARENT}"]
    assert _tree(doc) == [("main", None, None, "", 8, "completed"),
                          (CHILD, "main", "call_spawn", "worker", 6, "failed")]
    child = doc["agents"][1]
    assert (child["description"], child["first_seq"], child["last_seq"]) == ("Hypatia", 8, 18)
    # The parent's benchmark is counted once: the copy at the child's head is not read again.
    assert [(c["seq"], c["agent"], c["host"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
        (3, "main", "gpu01", "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang'", 0),
        (17, CHILD, "gpu01", "ssh gpu01 nvidia-smi", 255)]
    assert [(m["seq"], m["name"], m["value"]) for m in doc["metrics"]] == [(4, "throughput", 54.8)]
    assert [(e["seq"], e["agent"], e["kind"]) for e in doc["errors"]] == [(18, CHILD, "connection")]
    assert f"| {CHILD} | main | call_spawn | 6 | 1 | 1 | failed |" in md


def test_a_codex_sub_agent_without_its_parent_says_whose_it_is(tmp_path):
    doc = analyze_path(_rollouts(tmp_path, "child")).to_json()
    [main] = doc["agents"]
    assert (main["id"], main["parent"], main["type"]) == ("main", None, "worker")
    assert main["description"] == f"Hypatia of Codex thread {PARENT} (not under PATH)"


def test_the_copied_parent_history_ends_where_the_child_starts_its_own_turn(tmp_path):
    from spec_debug.session.formats.codex_threads import replayed_span

    parent = tmp_path / "parent.jsonl"
    parent.write_text("".join(json.dumps(x) + "\n" for x in PARENT_ROLLOUT))
    own = CHILD_ROLLOUT[len(PARENT_HEAD) + 1:]
    # Copied with the parent's own times, one parent line left out of the copy.
    copy = [x for x in PARENT_HEAD if x is not PARENT_HEAD[2]]
    child = tmp_path / "child.jsonl"
    child.write_text("".join(json.dumps(x) + "\n" for x in [CHILD_ROLLOUT[0], *copy, *own]))
    assert replayed_span(child, CHILD, parent) == (1, 1 + len(copy))
    # A rollout of the child's own lines only: nothing to skip.
    child.write_text("".join(json.dumps(x) + "\n" for x in [CHILD_ROLLOUT[0], *own]))
    assert replayed_span(child, CHILD, parent) is None


# -- OpenAI-compatible tool calls whose arguments are not strict JSON ---------------------------

def _call(call_id: str, name: str, arguments: str) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]}


def test_tool_call_arguments_that_are_not_strict_json_keep_their_command(cli, tmp_path):
    chat = tmp_path / "chat.jsonl"
    messages = [
        {"role": "user", "content": "the draft model is slow on gpu01, check the hosts"},
        # A raw newline inside the command string (strict JSON forbids control characters).
        _call("c1", "bash", '{"command": "ssh gpu01 \'nvidia-smi\nuptime\'"}'),
        {"role": "tool", "tool_call_id": "c1", "content": "Exit code 255\nssh: connect to host gpu01 port 22: "
                                                          "Connection refused"},
        # A stray closing brace after the object (yigit353/langchain-qwq issue #30).
        _call("c2", "bash", '{"command": "ssh gpu02 uptime"}}'),
        {"role": "tool", "tool_call_id": "c2", "content": " 08:00:01 up 3 days"},
        # The object encoded twice (vllm-project/vllm PR #25729).
        _call("c3", "run_shell", json.dumps(json.dumps({"cmd": "ssh gpu03 df -h"}))),
        {"role": "tool", "tool_call_id": "c3", "content": "/dev/nvme0n1  1.8T"},
        # Cut by the token limit after a complete command (vllm-project/vllm issue #41739).
        _call("c4", "run_shell", '{"cmd": "ssh gpu04 free -g", "timeout": 3'),
        {"role": "tool", "tool_call_id": "c4", "content": "Mem: 2015"},
        # Cut inside the command itself: nothing trustworthy to keep.
        _call("c5", "run_shell", '{"cmd": "ssh gpu05 nvidia-sm'),
    ]
    chat.write_text("".join(json.dumps(m) + "\n" for m in messages))
    doc, md = _both_formats(cli, chat, tmp_path)
    assert [(c["seq"], c["host"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
        (1, "gpu01", "ssh gpu01 'nvidia-smi\nuptime'", 255),
        (3, "gpu02", "ssh gpu02 uptime", None),
        (5, "gpu03", "ssh gpu03 df -h", None),
        (7, "gpu04", "ssh gpu04 free -g", None),
    ]
    assert doc["stats"]["tool_calls"] == 5 and doc["stats"]["lines_skipped"] == 0
    assert "gpu04" in md


def test_a_codex_rollout_named_alone_brings_its_sub_agents_from_its_day_folder(tmp_path):
    sessions = _rollouts(tmp_path, "parent", "child")
    day = sessions / "2026" / "05" / "12"
    # Another session of the same day, not ours: it stays out.
    (day / "rollout-2026-05-12T09-00-00-019a2222-cccc-7ccc-8ccc-000000000003.jsonl").write_text(
        json.dumps(_rl("00:00", "session_meta", {"id": "019a2222-cccc-7ccc-8ccc-000000000003", "source": "cli"})) + "\n")
    doc = analyze_path(day / f"rollout-2026-05-12T08-00-00-{PARENT}.jsonl").to_json()
    assert [s["id"] for s in doc["sessions"]] == [f"rollout-2026-05-12T08-00-00-{PARENT}"]
    assert _tree(doc) == [("main", None, None, "", 8, "completed"),
                          (CHILD, "main", "call_spawn", "worker", 6, "failed")]
    assert [c["seq"] for c in doc["commands"]] == [3, 17]


def test_a_session_forked_by_the_person_does_not_count_the_copied_history_again(tmp_path):
    # `/fork`: a session of its own (source "cli", forked_from_id), headed by a copy of the
    # parent's history (ccusage test skips_replayed_parent_token_history_in_forked_session_files).
    sessions = _rollouts(tmp_path, "parent")
    fork_id = "019a1111-dddd-7ddd-8ddd-000000000004"
    fork = sessions / "2026" / "05" / "12" / f"rollout-2026-05-12T08-10-00-{fork_id}.jsonl"
    fork.write_text("".join(json.dumps(x) + "\n" for x in [
        _rl("10:00", "session_meta", {"id": fork_id, "forked_from_id": PARENT, "cwd": "/work", "source": "cli"}),
        *PARENT_ROLLOUT,
        _rl("10:01", "turn_context", {"turn_id": "t9", "model": "gpt-5.1-codex", "cwd": "/work"}),
        _user_msg("10:01", "try with --speculative-num-steps 3"),
        _exec("10:02", "call_bench2", "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang'"),
        _exec_out("10:03", "call_bench2", "Output token throughput (tok/s):         91.2", 0),
    ]))
    doc = analyze_path(sessions).to_json()
    assert [(s["id"][-4:], s["events"]) for s in doc["sessions"]] == [("0001", 8), ("0004", 5)]
    assert [(c["session"][-4:], c["seq"]) for c in doc["commands"]] == [("0001", 3), ("0004", 11)]
    assert [(m["session"][-4:], m["value"]) for m in doc["metrics"]] == [("0001", 54.8), ("0004", 91.2)]


def test_a_log_in_a_windows_code_page_keeps_its_lines(tmp_path):
    # cmd.exe writes redirected output in the console's code page; "µs" is one byte in cp1252.
    log = tmp_path / "bench.log"
    log.write_bytes((
        "$ ssh gpu01 'python3 /root/bench_eagle3.py'\n"
        "draft step 41.7 µs, verify 3.1 ms\n"
        "Traceback (most recent call last):\n"
        '  File "/root/bench_eagle3.py", line 12, in <module>\n'
        "    run(\"Datenträger D:\")\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered (Gerät 0)\n"
    ).encode("cp1252"))
    doc = analyze_path(log).to_json()
    assert doc["stats"]["binary"] == 0
    assert [(e["seq"], e["exception"], e["file"], e["line"]) for e in doc["errors"]] == [
        (0, "RuntimeError", "/root/bench_eagle3.py", 12)]
    assert doc["errors"][0]["message"] == "CUDA error: an illegal memory access was encountered (Gerät 0)"


# -- Claude Code background shells: the launch returns at once, polls tell how it ended -------------

def _cc_line(n: int, kind: str, content, **extra) -> dict:
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w",
            "sessionId": "bbbb0000-0000-4000-8000-000000000001", "version": "2.0.46", "type": kind,
            "uuid": f"u{n}", "timestamp": f"2025-11-30T08:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}


def test_a_background_shell_that_died_is_a_failed_call_with_its_exit_code(tmp_path):
    launch = ("ssh gpu01 'python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct "
              "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3'")
    lines = [
        _cc_line(0, "user", "start the EAGLE-3 server on gpu01 and watch it"),
        _cc_line(1, "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                   "input": {"command": launch, "run_in_background": True}}]),
        _cc_line(2, "user", [{"type": "tool_result", "tool_use_id": "t1", "is_error": False,
                              "content": "Command running in background with ID: b2f8b9"}]),
        _cc_line(3, "assistant", [{"type": "tool_use", "id": "t2", "name": "BashOutput", "input": {"bash_id": "b2f8b9"}}]),
        _cc_line(4, "user", [{"type": "tool_result", "tool_use_id": "t2",
                              "content": "<status>running</status>\n\n<timestamp>2025-11-30T08:00:04.908Z</timestamp>"}]),
        _cc_line(5, "assistant", [{"type": "tool_use", "id": "t3", "name": "BashOutput", "input": {"bash_id": "b2f8b9"}}]),
        _cc_line(6, "user", [{"type": "tool_result", "tool_use_id": "t3", "content": (
            "<status>failed</status>\n\n<exit_code>137</exit_code>\n\n<stdout>\n[2025-11-30 08:00:05] Load weight "
            "end. mem usage=15.02 GB\nKilled\n</stdout>\n\n<timestamp>2025-11-30T08:00:06.100Z</timestamp>")}]),
    ]
    path = tmp_path / "bbbb0000-0000-4000-8000-000000000001.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    assert [(e["seq"], e["kind"], e["exception"]) for e in doc["errors"]] == [(6, "signal", "SIGKILL")]
    [main] = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"], main["errors"]) == (3, 1, 1)
    # The poll that found it dead states its exit code (its call names the shell, bash_id): the
    # launch ended so, on gpu01; the poll that found it running ended nothing.
    assert [(c["seq"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [(1, 137, True, 6)]
    assert [(e["command_seq"], e["host"]) for e in doc["errors"]] == [(1, "gpu01")]


def test_background_agents_end_as_their_task_notification_says(tmp_path):
    # CLI 2.1.x `Agent` with run_in_background: the result says only async_launched; the end
    # comes as a <task-notification> user line (shapes parsed alike by several transcript readers).
    sid = "bbbb0000-0000-4000-8000-000000000002"

    def line(n, kind, content, agent=None, **extra):
        out = _cc_line(n, kind, content, **extra)
        out["sessionId"] = sid
        if agent:
            out.update(isSidechain=True, agentId=agent)
        return out

    def spawn(n, tool_id, description):
        return line(n, "assistant", [{"type": "tool_use", "id": tool_id, "name": "Agent", "input": {
            "description": description, "prompt": description, "subagent_type": "general-purpose",
            "run_in_background": True}}])

    def launched(n, tool_id, agent):
        return line(n, "user", [{"type": "tool_result", "tool_use_id": tool_id, "content": [
            {"type": "text", "text": f"Async agent launched successfully.\nagentId: {agent}"}]}],
            toolUseResult={"isAsync": True, "status": "async_launched", "agentId": agent})

    trunk = [
        line(0, "user", "profile the draft on gpu01 and check the weights in parallel"),
        spawn(1, "toolu_a", "profile the draft"), launched(2, "toolu_a", "a1b2c3"),
        spawn(3, "toolu_b", "check the weights"), launched(4, "toolu_b", "d4e5f6"),
        line(5, "user", "<task-notification>\n<task-id>a1b2c3</task-id>\n<status>failed</status>\n"
                        "<summary>Agent \"profile the draft\" failed</summary>\n</task-notification>"),
        line(6, "user", [{"type": "text", "text": "[SYSTEM NOTIFICATION - NOT USER INPUT]\n\n<task-notification>\n"
                                                  "<task-id>d4e5f6</task-id>\n<status>killed</status>\n"
                                                  "</task-notification>"}]),
    ]
    project = tmp_path / "-w"
    (project / sid / "subagents").mkdir(parents=True)
    (project / f"{sid}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in trunk))
    for agent in ("a1b2c3", "d4e5f6"):
        (project / sid / "subagents" / f"agent-{agent}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [
            line(0, "user", "go", agent),
            line(1, "assistant", [{"type": "text", "text": "looking"}], agent)]))
    doc = analyze_path(project).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]] == [
        ("main", None, None, "completed"), ("a1b2c3", "main", "toolu_a", "failed"),
        ("d4e5f6", "main", "toolu_b", "interrupted")]  # killed: stopped by hand, not failed
    # The notifications are the CLI's, not prompts the person typed.
    assert [p["seq"] for p in doc["prompts"]] == [0, 7, 9]  # the trunk's and each agent's first line


def test_claude_code_auto_memory_notes_are_not_sessions(tmp_path):
    # ~/.claude/projects/<project>/memory/: MEMORY.md (the index) and topic notes, in Markdown.
    project = _workflow(tmp_path)
    memory = project / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("# Memory\n- [debugging](debugging.md): EAGLE-3 notes\n")
    (memory / "debugging.md").write_text(
        "# Debugging\n$ ssh gpu01 nvidia-smi\nRuntimeError: CUDA error: out of memory\n54.8 tok/s with the draft\n")
    for path in (project, tmp_path):
        doc = analyze_path(path).to_json()
        assert [s["id"] for s in doc["sessions"]] == [WORKFLOW_SESSION], path
        assert doc["commands"] == [] and doc["errors"] == [] and doc["metrics"] == []


def test_a_cli_home_folder_is_read_only_where_its_transcripts_are(tmp_path):
    home = tmp_path / "home"
    claude = home / ".claude"
    _fixture("workflow_scriptpath", claude / "projects" / "-repo")
    (claude / "settings.json").write_text('{"model": "opus"}')
    (claude / "CLAUDE.md").write_text("# Rules\n$ ssh gpu01 nvidia-smi\nRuntimeError: never run this\n")
    (claude / "agents").mkdir()
    (claude / "agents" / "reviewer.md").write_text("---\nname: reviewer\n---\nYou review diffs.\n")
    (claude / "history.jsonl").write_text(json.dumps({"display": "why is it slow", "timestamp": 1}) + "\n")
    codex = home / ".codex"
    _rollouts(codex, "parent")
    (codex / "config.toml").write_text('model = "gpt-5.1-codex"\n')
    (codex / "AGENTS.md").write_text("# Agents\n$ make test\n")
    (codex / "log").mkdir()
    (codex / "log" / "codex-tui.log").write_text(
        "2026-05-12T08:00:03Z INFO codex_core::exec: ssh gpu01 nvidia-smi\nTraceback (most recent call last):\n")
    for path, session in ((claude, WORKFLOW_SESSION), (codex, f"rollout-2026-05-12T08-00-00-{PARENT}")):
        doc = analyze_path(path).to_json()
        assert [s["id"] for s in doc["sessions"]] == [session]
        assert doc["errors"] == []


def test_an_output_saved_aside_is_read_from_tool_results(cli, tmp_path):
    # A long output is replaced by a <persisted-output> marker with a 2 KB preview; the whole
    # of it is in <sessionId>/tool-results/, where the traceback that ends it is.
    sid = "bbbb0000-0000-4000-8000-000000000003"
    project = tmp_path / "-w"
    (project / sid / "tool-results").mkdir(parents=True)
    log = "".join(f"[2025-11-30 08:00:{i % 60:02d}] Capture cuda graph bs {i}\n" for i in range(4000)) + (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 212, in forward_draft\n'
        "    hidden = torch.cat(aux_hidden_states, dim=-1)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    (project / sid / "tool-results" / "toolu_01BVbVcVHRR7QLzTiqqcz6Gv.txt").write_text(log)
    marker = ("<persisted-output>\nOutput too large (160.4KB). Full output saved to: "
              f"/Users/mei/.claude/projects/-w/{sid}/tool-results/toolu_01BVbVcVHRR7QLzTiqqcz6Gv.txt\n\n"
              f"Preview (first 2KB):\n{log[:2048]}\n</persisted-output>")
    lines = [
        _cc_line(0, "user", "why does the server die on gpu01?"),
        _cc_line(1, "assistant", [{"type": "tool_use", "id": "toolu_01BVbVcVHRR7QLzTiqqcz6Gv", "name": "Bash",
                                   "input": {"command": "ssh gpu01 'tail -n 5000 /var/log/sglang.log'"}}]),
        _cc_line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01BVbVcVHRR7QLzTiqqcz6Gv",
                              "is_error": False, "content": marker}]),
    ]
    (project / f"{sid}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc, md = _both_formats(cli, project, tmp_path)
    assert [s["id"] for s in doc["sessions"]] == [sid]
    assert [(e["seq"], e["kind"], e["exception"], e["file"], e["line"], e["host"]) for e in doc["errors"]] == [
        (2, "cuda_oom", "RuntimeError", "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", 212, "gpu01")]
    assert "CUDA out of memory" in md


def test_a_script_typescript_reads_as_the_terminal_showed_it(tmp_path):
    # script(1) keeps backspaces, carriage returns and erase-to-end sequences (util-linux
    # script(1), BUGS): a typo fixed at the prompt, a progress bar, a line readline redrew.
    prompt = b"\x1b]0;root@gpu01: ~\x07\x1b[01;32mroot@gpu01\x1b[00m:\x1b[01;34m~\x1b[00m# "
    log = tmp_path / "typescript"
    log.write_bytes(
        b'Script started on 2026-05-12 08:00:00+00:00 [TERM="xterm-256color" TTY="/dev/pts/0"]\r\n'
        + prompt + b"nvidia-smo\x08 \x08i\r\n"
        b"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\r\n"
        + prompt + b"python3 -m sglang.bench_serving --backend sglang --num-prompt 64\r"
        + prompt + b"python3 -m sglang.bench_serving --backend sglang --num-prompts 64\x1b[K\r\n"
        b"  0%|          | 0/64 [00:00<?, ?it/s]\r100%|##########| 64/64 [00:10<00:00, 6.4it/s]\r\n"
        b"Output token throughput (tok/s):         54.8\r\n"
        b'Script done on 2026-05-12 08:01:00+00:00 [COMMAND_EXIT_CODE="0"]\r\n')
    doc = analyze_path(log).to_json()
    assert [(c["seq"], c["host"], c["command"]) for c in doc["commands"]] == [
        (1, "gpu01", "nvidia-smi"),
        (2, "gpu01", "python3 -m sglang.bench_serving --backend sglang --num-prompts 64")]
    assert [(m["seq"], m["name"], m["value"], m["host"]) for m in doc["metrics"]] == [(2, "throughput", 54.8, "gpu01")]


def test_a_resumed_claude_session_does_not_count_the_history_it_copied(tmp_path):
    # `claude --resume A` writes a new file B that starts with A's lines, same uuids and
    # sessionId (anthropics/claude-code #4926, #28463; Clawdi-AI/clawdi PR #81).
    a_id, b_id = "aaaa1111-0000-4000-8000-000000000001", "bbbb2222-0000-4000-8000-000000000002"

    def line(n, sid, kind, content):
        out = _cc_line(n, kind, content)
        out["sessionId"], out["uuid"] = sid, f"{sid[:4]}-{n}"
        return out

    a_lines = [
        line(0, a_id, "user", "why is the EAGLE-3 draft slower than the baseline on gpu01?"),
        line(1, a_id, "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                     "input": {"command": "ssh gpu01 'python3 /root/bench_eagle3.py'"}}]),
        line(2, a_id, "user", [{"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content":
                                "Exit code 1\nTraceback (most recent call last):\n  File \"/root/bench_eagle3.py\", "
                                "line 9, in <module>\nRuntimeError: CUDA error: out of memory"}]),
    ]
    b_lines = [*a_lines,
               {"type": "file-history-snapshot", "messageId": "aaaa-2", "snapshot": {}, "isSnapshotUpdate": False},
               line(3, b_id, "user", "retry with a smaller batch"),
               line(4, b_id, "assistant", [{"type": "tool_use", "id": "t2", "name": "Bash",
                                            "input": {"command": "ssh gpu01 'python3 /root/bench_eagle3.py --bs 8'"}}]),
               line(5, b_id, "user", [{"type": "tool_result", "tool_use_id": "t2", "is_error": False,
                                       "content": "Output token throughput (tok/s): 88.1"}])]
    project = tmp_path / "-w"
    project.mkdir()
    (project / f"{a_id}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in a_lines))
    (project / f"{b_id}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in b_lines))
    doc = analyze_path(project).to_json()
    assert [s["id"] for s in doc["sessions"]] == [b_id]
    assert [(c["seq"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
        (1, "ssh gpu01 'python3 /root/bench_eagle3.py'", 1),
        (5, "ssh gpu01 'python3 /root/bench_eagle3.py --bs 8'", 0)]
    assert [(e["seq"], e["kind"]) for e in doc["errors"]] == [(2, "cuda_oom")]
    # A file named on its own is read whole, copied history included.
    assert len(analyze_path(project / f"{a_id}.jsonl").to_json()["commands"]) == 1


# -- asciinema terminal recordings (docs.asciinema.org/manual/asciicast/v2 and /v3) ---------------

CAST_OUTPUT = [
    (0.5, "\x1b]0;mei@laptop: ~\x07mei@laptop:~$ "),
    (2.0, "s"), (2.1, "sh gpu01"), (2.3, "\r\n"),
    (3.0, "root@gpu01:~# "),
    (4.0, "python3 /root/test_eagle3.py\r\n"),
    (9.0, "Traceback (most recent call last):\r\n  File \"/root/eagle3/model.py\", line 88, in forward\r\n"
          "    h = torch.cat([low, mid, high], dim=-1)\r\nRuntimeError: Sizes of tensors must match except in "
          "dimension 2. Expected size 4096 but got size 2048 for tensor number 1 in the list.\r\n"),
    (10.0, "root@gpu01:~# "),
    (12.0, "python3 -m sglang.bench_serving --backend sglang\r\n"),
    (70.0, "Output token throughput (tok/s):         54.8\r\n"),
    (71.0, "root@gpu01:~# "),
]


def _cast(path: Path, version: int) -> Path:
    if version == 2:
        header = {"version": 2, "width": 120, "height": 40, "timestamp": 1778572800,
                  "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}}
        events = [[t, "o", d] for t, d in CAST_OUTPUT]
    else:
        header = {"version": 3, "term": {"cols": 120, "rows": 40, "type": "xterm-256color"}, "timestamp": 1778572800}
        times = [t for t, _ in CAST_OUTPUT]
        events = [[round(t - (times[i - 1] if i else 0), 3), "o", d] for i, (t, d) in enumerate(CAST_OUTPUT)]
        events.insert(3, [0.0, "i", "sh gpu01\r"])
        events.append([0.5, "x", "0"])
    lines = [json.dumps(header)] + (["# event stream follows the header"] if version == 3 else [])
    path.write_text("\n".join(lines + [json.dumps(e) for e in events]) + "\n")
    return path


def test_asciinema_recordings_read_as_shell_logs_with_their_times(cli, tmp_path):
    docs = []
    for version in (2, 3):
        doc, md = _both_formats(cli, _cast(tmp_path / f"gpu01-v{version}.cast", version), tmp_path)
        assert doc["format"] == "text" and doc["stats"]["lines_skipped"] == 0
        assert "RuntimeError" in md
        docs.append(doc)
    for doc in docs:
        assert [(c["seq"], c["host"], c["command"], c["timestamp"]) for c in doc["commands"]] == [
            (0, "gpu01", "ssh gpu01", "2026-05-12T08:00:02.300000Z"),
            (1, "gpu01", "python3 /root/test_eagle3.py", "2026-05-12T08:00:04Z"),
            (2, "gpu01", "python3 -m sglang.bench_serving --backend sglang", "2026-05-12T08:00:12Z"),
        ]
        assert [(e["seq"], e["exception"], e["line"]) for e in doc["errors"]] == [(1, "RuntimeError", 88)]
        assert [(m["seq"], m["value"], m["host"]) for m in doc["metrics"]] == [(2, 54.8, "gpu01")]
    # Found in a folder scan too.
    assert [s["id"] for s in analyze_path(tmp_path).to_json()["sessions"]] == ["gpu01-v2", "gpu01-v3"]


def test_a_session_folder_copied_without_its_session_file_reads_its_agents(tmp_path):
    project = _workflow(tmp_path)
    (project / f"{WORKFLOW_SESSION}.jsonl").unlink()
    for path in (project / WORKFLOW_SESSION, project / WORKFLOW_SESSION / "subagents"):
        doc = analyze_path(path).to_json()
        assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("agent-agsp0001", 2)], path


def test_commands_run_through_an_mcp_ssh_tool_keep_their_host(tmp_path):
    # MCP servers' SSH tools take the host as an argument: ssh_exec{host: "user@host:port",
    # command} (tenox7/ssh-mcp), ssh_execute_command{host, username, command}
    # (VitalyMalakanov/mcp-ssh-toolkit-py).
    claude = tmp_path / "bbbb0000-0000-4000-8000-000000000004.jsonl"
    claude.write_text("".join(json.dumps(x) + "\n" for x in [
        _cc_line(0, "user", "is the GPU on gpu01 alive?"),
        _cc_line(1, "assistant", [{"type": "tool_use", "id": "t1", "name": "mcp__ssh-mcp__ssh_exec",
                                   "input": {"host": "root@gpu01:2222", "command": "nvidia-smi"}}]),
        _cc_line(2, "user", [{"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content":
                              "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."}]),
    ]))
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps(m) + "\n" for m in [
        {"role": "user", "content": "benchmark on gpu02"},
        _call("c1", "ssh_execute_command", json.dumps({"host": "gpu02.lab", "username": "ubuntu",
                                                       "command": "python3 -m sglang.bench_serving"})),
        {"role": "tool", "tool_call_id": "c1", "content": "Output token throughput (tok/s): 91.2"},
    ]))
    rollout = tmp_path / "rollout-2026-05-12T08-00-00-019a3333-eeee-7eee-8eee-000000000005.jsonl"
    rollout.write_text("".join(json.dumps(x) + "\n" for x in [
        _rl("00:00", "session_meta", {"id": "019a3333-eeee-7eee-8eee-000000000005", "source": "cli"}),
        _rl("00:01", "response_item", {"type": "function_call", "name": "ssh__ssh_exec", "call_id": "c9",
                                       "arguments": json.dumps({"host": "[fe80::1]:22", "command": "uptime"})}),
    ]))
    doc = analyze_path(tmp_path).to_json()
    assert sorted((c["host"], c["command"]) for c in doc["commands"]) == [
        ("fe80::1", "uptime"), ("gpu01", "nvidia-smi"), ("gpu02.lab", "python3 -m sglang.bench_serving")]
    assert [(m["value"], m["host"]) for m in doc["metrics"]] == [(91.2, "gpu02.lab")]
