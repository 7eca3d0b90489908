"""A command that names a path relative to the folder the session ran it in (`python
checks/accept_len.py` in /root/work) is a playbook step only from that folder: a step starts in
the remote user's home (ssh) or where spec-debug runs. The transcripts record the folder
(Claude Code's line `cwd`, Codex's turn `cwd` and call `workdir`); the analysis keeps it on the
command and distill runs the step from it, as a var. Sessions are written the way each tool
writes them, distilled, validated, and run with --host local."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.working_folder import reads_working_folder
from tests.session.incident_story import _Writer
from tests.session.test_hardening37_codex_typed_commands import _rollout, _running

CHECK = "import sys\nprint('accept len 1.02 < 2.5')\nsys.exit(3)\n"
LOW = "accept len 1.02 < 2.5"


def _claude_session(tmp_path: Path, folder: Path, *calls: tuple[str, str, int]) -> Path:
    m = _Writer("9a1b0000-0000-4000-8000-00000000d139", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    for command, output, exit_code in calls:
        m.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{m.session}.jsonl"
    # the folder Claude Code ran in, on every line (incident_story writes /root/work)
    path.write_text("\n".join(line.replace('"/root/work"', json.dumps(str(folder))) for line in m.lines) + "\n",
                    encoding="utf-8")
    return path


def _playbook(tmp_path: Path, session: Path) -> tuple[dict, Path]:
    doc = distill_playbook(analyze_path(session))
    text = dump_playbook(doc)
    load_playbook_text(text, "distilled.yaml")
    playbook = tmp_path / "distilled.yaml"
    playbook.write_text(text, encoding="utf-8")
    return doc, playbook


def _run_local(tmp_path: Path, playbook: Path) -> dict:
    """run.json's steps by id, of `spec-debug run PLAYBOOK --host local` started in the repository
    (not the session's folder)."""
    subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                    "--out", str(tmp_path / "runs")], capture_output=True, text=True, timeout=120,
                   stdin=subprocess.DEVNULL)
    (run_json,) = (tmp_path / "runs").glob("*/run.json")
    return {s["id"]: s for s in json.loads(run_json.read_text(encoding="utf-8"))["steps"]}


def test_a_script_run_by_its_relative_path_runs_from_the_sessions_folder(tmp_path):
    """Claude Code ran `python checks/accept_len.py` in the project folder. Before, the step was
    the bare command: run from anywhere else it failed with "can't open file", not with the
    check's own finding, and the folder was nowhere in the playbook."""
    work = tmp_path / "work"
    (work / "checks").mkdir(parents=True)
    (work / "checks" / "accept_len.py").write_text(CHECK, encoding="utf-8")
    (work / "logs").mkdir()
    (work / "logs" / "sglang.log").write_text("Decode batch. accept len: 1.02\n", encoding="utf-8")
    session = _claude_session(
        tmp_path, work,
        ("python3 checks/accept_len.py", f"Traceback (most recent call last):\nRuntimeError: {LOW}", 1),
        ("tail -n 20 logs/sglang.log", "Decode batch. accept len: 1.02", 0),
    )
    analysis = analyze_path(session)
    assert [c.cwd for c in analysis.commands] == [str(work)] * 2
    doc, playbook = _playbook(tmp_path, session)
    runs = [s["run"] for s in doc["steps"]]
    assert runs == ["cd {{ workdir }} && python3 checks/accept_len.py",
                    "cd {{ workdir }} && tail -n 20 logs/sglang.log"], runs
    assert doc["vars"]["workdir"] == str(work)
    ran = _run_local(tmp_path, playbook)
    check, log = (ran[s["id"]] for s in doc["steps"])
    assert (check["exit_code"], check["stdout"]) == (3, LOW + "\n"), check
    assert (log["status"], log["stdout"]) == ("passed", "Decode batch. accept len: 1.02\n"), log


def test_commands_that_name_no_relative_path_or_ran_elsewhere_keep_their_words(tmp_path):
    """The folder is the session's own shell's: a command sent through ssh ran in the remote
    home, and one that names only absolute paths or a model id runs the same from anywhere."""
    session = _claude_session(
        tmp_path, Path("/root/work"),
        ("ssh root@gpu01 'python3 checks/accept_len.py'", f"RuntimeError: {LOW}", 1),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0),
        ("curl -sf http://gpu01:30000/get_model_info", "curl: (7) Failed to connect to gpu01 port 30000", 7),
        ("cat /models/eagle3/config.json", '{"draft_vocab_size": 32000}', 0),
    )
    assert [c.cwd for c in analyze_path(session).commands] == [None, None, "/root/work", "/root/work"]
    doc, _ = _playbook(tmp_path, session)
    runs = [s["run"] for s in doc["steps"]]
    assert runs and not any("cd " in r for r in runs), runs
    assert "workdir" not in doc["vars"]


def _codex_rollout(tmp_path: Path) -> Path:
    lines = [
        {"type": "session_meta", "payload": {"id": "c0de0000-0000-4000-8000-000000000039", "cwd": "/root/repo",
                                             "cli_version": "0.45.0"}},
        {"type": "turn_context", "payload": {"cwd": "/root/work", "model": "gpt-5-codex"}},
        {"type": "event_msg", "payload": {"type": "user_message", "message": "EAGLE-3 accepts almost nothing."}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "call_id": "c1",
                                              "arguments": json.dumps({"cmd": "python3 checks/accept_len.py"})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
                                              "output": f"Process exited with code 1\nOutput:\nRuntimeError: {LOW}"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "call_id": "c2",
                                              "arguments": json.dumps({"command": ["bash", "-lc",
                                                                                   "tail -n 20 sglang.log"],
                                                                       "workdir": "logs"})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c2",
                                              "output": json.dumps({"output": "Decode batch. accept len: 1.02",
                                                                    "metadata": {"exit_code": 0}})}},
    ]
    path = tmp_path / "rollout-2026-03-02T08-00-00-c0de0000-0000-4000-8000-000000000039.jsonl"
    path.write_text("".join(json.dumps({"timestamp": f"2026-03-02T08:00:{i:02d}.000Z", **line}) + "\n"
                            for i, line in enumerate(lines)), encoding="utf-8")
    return path


def test_a_codex_call_runs_in_its_workdir_read_from_the_turns_folder(tmp_path):
    """Codex runs a call in the turn's cwd (turn_context), or in the call's `workdir`, which is
    read from the turn's cwd when relative (codex-rs TurnContext::resolve_path)."""
    path = _codex_rollout(tmp_path)
    analysis = analyze_path(path)
    assert [(c.command, c.cwd) for c in analysis.commands] == [
        ("python3 checks/accept_len.py", "/root/work"), ("tail -n 20 sglang.log", "/root/work/logs")]
    doc = distill_playbook(analysis)
    assert [s["run"] for s in doc["steps"]] == ["cd {{ workdir }} && python3 checks/accept_len.py",
                                                "cd {{ workdir_2 }} && tail -n 20 sglang.log"], doc["steps"]
    assert (doc["vars"]["workdir"], doc["vars"]["workdir_2"]) == ("/root/work", "/root/work/logs")


def test_a_line_typed_into_a_codex_terminal_has_no_folder(tmp_path):
    """`exec_command{cmd: bash, tty: true}` opened a shell in the turn's folder; `cd sglang` and
    `git log` typed into it (write_stdin) ran wherever the shell had moved: no folder is given
    (before this was kept, `git log` was sent to the turn's folder, not the checkout)."""
    path = _rollout(tmp_path, "bash", [("cd sglang\n", _running(7, "$ ")),
                                       ("git log --oneline -1\n", _running(7, "a1b2c3d eagle3: capture\n$ "))])
    assert [(c.command, c.cwd) for c in analyze_path(path).commands] == [
        ("bash", "/tmp/p"), ("cd sglang", None), ("git log --oneline -1", None)]


def test_the_analysis_json_gives_each_command_its_folder(tmp_path):
    """`analyze --json`: commands[].cwd, null where the transcript does not say."""
    path = _codex_rollout(tmp_path)
    out = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(path), "--json"],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert [c["cwd"] for c in json.loads(out.stdout)["commands"]] == ["/root/work", "/root/work/logs"]


def test_a_shell_log_command_runs_from_the_folder_its_prompt_shows(tmp_path):
    """`root@gpu01:/srv/eagle# python3 checks/accept_len.py` (bash's \\w in Debian's prompt): the
    command ran in /srv/eagle. Before, the step ran it bare, from the home an ssh step starts in."""
    work = tmp_path / "eagle"
    (work / "checks").mkdir(parents=True)
    (work / "checks" / "accept_len.py").write_text(CHECK, encoding="utf-8")
    log = tmp_path / "gpu01.log"
    log.write_text(f"""root@gpu01:~# nvidia-smi -L
GPU 0: NVIDIA H200 (UUID: GPU-5d1c)
root@gpu01:~# cd {work}
root@gpu01:{work}# python3 checks/accept_len.py
Traceback (most recent call last):
RuntimeError: {LOW}
root@gpu01:{work}# ps aux | grep sglang
root 4121 python3 -m sglang.launch_server
""", encoding="utf-8")
    assert [c.cwd for c in analyze_path(log).commands] == ["~", "~", str(work), str(work)]
    doc, playbook = _playbook(tmp_path, log)
    (step,) = [s for s in doc["steps"] if "accept_len" in s["run"]]
    assert step["run"] == "cd {{ workdir }} && python3 checks/accept_len.py"
    assert doc["vars"]["workdir"] == str(work)
    assert not any("cd " in s["run"] for s in doc["steps"] if s is not step), doc["steps"]
    ran = _run_local(tmp_path, playbook)[step["id"]]
    assert (ran["exit_code"], ran["stdout"]) == (3, LOW + "\n"), ran


def test_a_command_typed_at_another_hosts_prompt_goes_to_its_folder_there(tmp_path):
    """The playbook runs on gpu01; a check typed at `alice@gpu02:~/eagle$` is sent to gpu02 and
    runs from ~/eagle there (the `~` unquoted, so that gpu02's shell expands it)."""
    log = tmp_path / "fleet.log"
    log.write_text("""root@gpu01:~# curl -sf http://localhost:30000/health
curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused
root@gpu01:~# ps aux | grep sglang
root 4121 python3 -m sglang.launch_server
root@gpu01:~# tail -n 5 /var/log/sglang.log
RuntimeError: CUDA error: an illegal memory access was encountered
alice@gpu02:~/eagle$ python3 checks/accept_len.py
RuntimeError: accept len 1.02 < 2.5
alice@gpu02:~/eagle$ tail -n 20 logs/sglang.log
Decode batch. #running-req: 1, accept len: 1.02
""", encoding="utf-8")
    doc, _ = _playbook(tmp_path, log)
    (step,) = [s for s in doc["steps"] if "accept_len" in s["run"]]
    assert step["run"] == "ssh alice@{{ host_gpu02 }} 'cd ~/eagle && python3 checks/accept_len.py'", doc["steps"]
    assert "workdir" not in doc["vars"]


@pytest.mark.parametrize(("command", "reads"), [
    ("python3 checks/accept_len.py", True),
    ("tail -n 20 logs/sglang.log", True),
    ("jq .draft_vocab_size config.json", True),
    ("./bench.sh --quick", True),
    ("grep -rn 'accept len' .", True),
    ("pytest tests/test_eagle.py::test_accept", True),
    ("git log --oneline -5", True),
    ("cd eagle3 && cat config.json", True),
    ("ls *.safetensors", True),
    (". .venv/bin/activate && pip list", True),
    ("cd /root/work && python3 checks/accept_len.py", False),
    ("git -C /srv/sglang log -3", False),
    ("python3 -m sglang.bench_one_batch --model-path meta-llama/Llama-3.1-8B-Instruct --batch-size 1", False),
    ("huggingface-cli download Qwen/Qwen2.5-7B-Instruct", False),
    ("docker pull lmsys/sglang:latest", False),
    ("docker pull nvcr.io/nvidia/pytorch", False),
    ("ls python/sglang/srt/speculative", True),
    ("curl -sf http://localhost:30000/get_server_info", False),
    ("python3 -c 'import json; print(json.load(open(\"/models/eagle3/config.json\")))'", False),
    ("grep 'models/eagle3.json' /var/log/sglang.log", False),
    ("nvidia-smi --query-gpu=memory.used --format=csv,noheader", False),
    ("ps aux | grep sglang", False),
])
def test_what_names_a_relative_path(command, reads):
    assert reads_working_folder(command) is reads
