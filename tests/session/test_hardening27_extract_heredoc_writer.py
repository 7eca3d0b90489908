"""A script a local program writes from its heredoc and pipes to ssh (``python3 - <<'EOF' | ssh
gpu01 bash``, an agent generating one nvidia-smi line per GPU): the host runs ssh's remote
command on what the program prints. Before, the heredoc's lines were read as ssh's remote
command's words ("bash for"), and distill made a step of them."""

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import select_commands
from spec_debug.session.shell import parse_target, script_made_locally, ssh_heredoc

_GEN = ("python3 - <<'EOF' | ssh gpu01 bash\nfor i in range(8):\n"
        "    print(f\"nvidia-smi -i {i} --query-gpu=memory.used --format=csv\")\nEOF")


@pytest.mark.parametrize("command, host, inner", [
    (_GEN, "gpu01", "bash"),
    ("python3 gen.py <<EOF | ssh -p 2222 ops@gpu02 'bash -s'\nlayers: 32\nEOF\necho sent", "gpu02", "bash -s"),
])
def test_the_host_runs_ssh_s_remote_command(command, host, inner):
    target = parse_target(command)
    assert (target.host, target.inner) == (host, inner)  # was "bash for", "bash -s layers: 32 EOF"
    assert script_made_locally(command)
    assert ssh_heredoc(command) is None  # the script is not the heredoc's body


@pytest.mark.parametrize("command, inner", [
    ("cat <<'EOF' | ssh gpu01 bash\nnvidia-smi\nEOF", "nvidia-smi"),
    # envsubst passes the heredoc on with variables filled in, as cat does (GNU gettext envsubst(1))
    ("envsubst <<'EOF' | ssh gpu01 bash\nnvidia-smi -i $GPU\nEOF", "nvidia-smi -i $GPU"),
])
def test_a_heredoc_passed_on_is_the_script(command, inner):
    assert ssh_heredoc(command).inner == inner and not script_made_locally(command)


def test_a_local_program_s_pipe_to_a_local_program_stays_local():
    assert parse_target("python3 - <<'EOF' | grep MiB\nprint(1)\nEOF").host is None


def _line(n, kind, **fields):
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": "s27",
            "timestamp": f"2026-02-01T10:{n:02d}:00Z", "cwd": "/work", "isSidechain": False,
            "userType": "external", "version": "2.1.31", **fields}


def _call(n, command):
    return _line(n, "assistant", message={"id": f"msg_{n}", "role": "assistant", "content": [
        {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": command}}]})


def _result(n, text, is_error):
    return _line(n + 1, "user", message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": f"toolu_{n}", "is_error": is_error, "content": text}]})


@pytest.mark.parametrize("remote", ["bash", "'bash -s'"])
def test_distill_makes_no_step_of_a_locally_written_script(tmp_path: Path, remote: str):
    command = _GEN.replace("ssh gpu01 bash", f"ssh gpu01 {remote}")
    lines = [_line(0, "user", message={"role": "user", "content": "The EAGLE-3 drafter test fails on gpu01"}),
             _call(1, "ssh gpu01 'python -m pytest /opt/eagle3/test_draft.py -x'"),
             _result(1, "Exit code 1\nE   KeyError: 'd2t'\nFAILED test_draft.py::test_vocab_map", True),
             _call(3, command), _result(3, "0 MiB\n" * 8, False)]
    path = tmp_path / "s27.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    gen = next(c for c in a.commands if c.command == command)
    assert (gen.host, gen.inner) == ("gpu01", remote.strip("'"))
    # the check the agent turned to (as a pivot names it): wanted, but its script is not known
    a.pivots.append(SimpleNamespace(session=gen.session, seq=gen.seq, trigger_seq=2))
    assert command not in [c.command for c in select_commands(a)]  # was a step "bash -s"


@pytest.mark.parametrize("command, inner", [
    # a backslash quotes the word as quotes do (bash(1), Here Documents)
    ("ssh gpu01 bash <<\\EOF\nnvidia-smi\nEOF", "nvidia-smi"),
    ("ssh gpu01 python3 - <<\\PY\nimport torch\nPY", "python3 - <<'PY'\nimport torch\nPY"),
])
def test_a_backslash_quoted_word_is_a_heredoc(command, inner):
    assert parse_target(command).inner == inner  # was "bash < < EOF nvidia-smi EOF"
