"""A terminal log states a command's exit status only when someone types ``echo $?`` after it
(the prompt shows none): the status was read as that echo's output and lost, so a health check
that failed silently (``curl`` exit 7, no output) read as a success and ``nvidia-smi`` exit 9 had
no status. ``$?`` is the status of the command before it in the same shell (bash(1))."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_tx"


def test_echo_status_gives_the_command_before_it_its_exit_code() -> None:
    a = analyze_path(DATA / "echo_status.log")
    got = [(c.command, c.exit_code, c.is_error) for c in a.commands]
    assert got == [
        ("curl -s -m 5 http://localhost:30000/health", 7, True),  # no output, yet failed
        ("echo $?", None, False),
        ("nvidia-smi", 9, True),
        ('echo "$?"', None, False),
        ("ls /models", 0, False),
        ("echo $?", None, False),
    ]
    assert a.agents[0]["failed_calls"] == 2


def test_echo_status_in_an_agent_transcript_is_left_alone(tmp_path: Path) -> None:
    # Each Claude Code Bash call runs in a shell of its own: its `echo $?` says nothing about
    # the call before it.
    import json
    lines = []
    for n, (cmd, out) in enumerate((("curl -s localhost:30000/health", ""), ("echo $?", "7"))):
        lines.append({"type": "assistant", "uuid": f"a{n}", "sessionId": "s", "timestamp": f"2026-01-01T00:00:0{n}Z",
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": cmd}}]}})
        lines.append({"type": "user", "uuid": f"u{n}", "sessionId": "s", "timestamp": f"2026-01-01T00:00:0{n}Z",
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": f"t{n}", "content": out, "is_error": False}]}})
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    a = analyze_path(path)
    assert [c.exit_code for c in a.commands] == [0, 0]


def test_a_status_the_command_echoes_is_its_exit_code() -> None:
    # Agents end a run with `; echo "EXIT: $?"`, so the Bash tool's exit code is the echo's 0;
    # the status was read as a success and the timeout (124) and ssh failure (255) were lost.
    a = analyze_path(DATA / "echoed_status.jsonl")
    assert [(c.exit_code, c.is_error) for c in a.commands] == [
        (3, True), (124, True), (255, True), (0, False), (0, False), (1, True),
        (0, False),  # a wait loop echoes each try's status, not its own
        (130, True)]  # rc=${PIPESTATUS[0]}; echo "bench exit: $rc"
    kinds = {e.command_seq: e.kind for e in a.errors}
    assert kinds[2] == "timeout" and kinds[4] == "connection"
    assert a.commands[2].host == "gpu1"


def test_an_openai_chat_log_records_no_status_so_the_output_says_it_failed() -> None:
    # A chat-completions messages array has no exit status (role "tool" holds only content):
    # a None there is "not recorded", as in a terminal log, not "succeeded". curl's refused
    # connection to the server was dropped because the scan read the call as a success.
    a = analyze_path(DATA / "chat_no_status.json")
    curl = a.commands[1]
    assert curl.command.startswith("curl") and curl.is_error
    assert curl.exit_code == 7  # the result's last line, "Exit code: 7" (test_hardening42_tool_status)
    assert [(e.kind, e.command_seq) for e in a.errors if e.command_seq == curl.seq] == [("connection", curl.seq)]


def test_a_sub_agent_whose_spawn_never_returned_is_running_not_completed() -> None:
    # The session was cut off (killed, or copied while it ran) with a1 still working and a1's
    # own spawn of b2 unanswered: both read "completed" (a1) and "failed" (b2), though neither
    # report ever came back. b2's spawn result is missing from a1's file, so only meta.json's
    # toolUseId links it (daaain/claude-code-log PR #218).
    doc = analyze_path(DATA / "cut_off").to_json()
    status = {a["id"]: (a["parent"], a["status"]) for a in doc["agents"]}
    assert status == {"main": (None, "completed"), "a1": ("main", "running"), "b2": ("a1", "running")}


def test_the_postmortem_says_a_sub_agent_never_reported_back() -> None:
    from spec_debug.session.postmortem import render_postmortem
    md = render_postmortem(analyze_path(DATA / "cut_off"), "md")
    assert "Sub-agent a1 (spawned by toolu_A1) never reported back" in md
    assert "Sub-agent b2 (spawned by toolu_B1) never reported back" in md


def test_an_output_redirection_after_ssh_is_the_local_shells(tmp_path: Path) -> None:
    # `ssh gpu1 nvidia-smi 2>/dev/null | grep MiB`: the redirection is done by the local shell.
    # Read as remote words (split_words cuts `2>` in two) the remote command was
    # `nvidia-smi 2 > /dev/null`, and distill wrote that broken command into the playbook.
    from spec_debug.session.shell import parse_target
    assert parse_target("ssh gpu1 nvidia-smi 2>/dev/null | grep MiB").inner == "nvidia-smi"
    assert parse_target("nohup ssh gpu2 'python x.py' > log 2>&1 &").inner == "python x.py"
    assert parse_target("ssh gpu6 bash -s < check.sh > out.txt").inner == "bash -s < check.sh"
    import subprocess
    import sys
    out = tmp_path / "p.yaml"
    subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(DATA / "ssh_redirections.jsonl"),
                    "-o", str(out)], check=True, capture_output=True)
    runs = [line.split("run:", 1)[1].strip() for line in out.read_text().splitlines() if "run:" in line]
    assert runs and runs[0] == "nvidia-smi"
    assert all(not r.rstrip().endswith(">") and " 2 >" not in r for r in runs), runs


def test_distill_makes_no_var_of_dev_null(tmp_path: Path) -> None:
    # `> /dev/null 2>&1` became a var named "null" the playbook asked a value for.
    import subprocess
    import sys
    out = tmp_path / "p.yaml"
    subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(DATA / "dev_null.jsonl"), "-o", str(out)],
                   check=True, capture_output=True)
    text = out.read_text()
    assert "{{ null }}" not in text and "/dev/null 2>&1" in text and "2>/dev/null" in text
    assert "{{ res_json }}" in text  # a path of the session's own is still a var


def test_a_cli_2_0_project_folder_reads_its_sessions_not_only_the_agents() -> None:
    # CLI 2.0.x wrote agent-*.jsonl beside the sessions in the project folder; the folder was
    # taken for a <sessionId>/ folder (it holds agent files), so only the agents were read, each
    # a session of its own, and the session itself was lost.
    doc = analyze_path(DATA / "cli2_project").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["aaaa0000-1111-4222-8333-444455556666"]
    assert {a["id"]: a["parent"] for a in doc["agents"]} == {"main": None, "a1": "main", "b2": "a1"}
