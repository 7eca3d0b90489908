"""Distilled playbooks read as an inference engineer would keep them: each step runs the command
that ran on the host, as it ran there. Sessions are written the way Claude Code writes them
(incident_story._Writer), distilled, validated, and where harmless run with --host local."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.shell_words import ssh_reads_local_file
from tests.session.incident_story import _Writer

REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"
HEALTH = ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7)


def _session(tmp_path: Path, *calls: tuple[str, str, int]) -> tuple[dict, Path]:
    """The playbook of a Claude Code session that makes ``calls`` (command, output, exit code),
    and the file it was written to (checked by the loader, as `playbooks validate` does)."""
    m = _Writer("9a1b0000-0000-4000-8000-00000000d038", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    for command, output, exit_code in calls:
        m.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    text = dump_playbook(doc)
    load_playbook_text(text, "distilled.yaml")
    playbook = tmp_path / "distilled.yaml"
    playbook.write_text(text, encoding="utf-8")
    return doc, playbook


def _run_local(tmp_path: Path, playbook: Path, *var: str) -> dict:
    """run.json's steps by id, of `spec-debug run PLAYBOOK --host local`."""
    args = [a for v in var for a in ("--var", v)]
    subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", *args,
                    "--out", str(tmp_path / "runs")], capture_output=True, text=True, timeout=120,
                   stdin=subprocess.DEVNULL)
    (run_json,) = (tmp_path / "runs").glob("*/run.json")
    return {s["id"]: s for s in json.loads(run_json.read_text(encoding="utf-8"))["steps"]}


def test_a_heredoc_inside_the_quoted_remote_command_is_the_remote_shells(tmp_path):
    """`ssh gpu01 "python3 - <<'EOF'` + script + `EOF"`: the heredoc is inside ssh's quoted
    remote command. Before: read as ssh's own heredoc, the step ran the script with `EOF"` and
    a second `EOF` after it (python3: SyntaxError, unterminated string literal)."""
    script = "import json\nprint(json.load(open('/models/eagle3/config.json'))['draft_vocab_size'])"
    doc, playbook = _session(tmp_path, HEALTH, (f"ssh root@gpu01 \"python3 - <<'EOF'\n{script}\nEOF\"", "32000", 0))
    (step,) = [s for s in doc["steps"] if "python3" in s["run"]]
    assert step["run"] == f"python3 - <<'EOF'\n{script.replace('/models/eagle3/config.json', '{{ config_json }}')}\nEOF"
    config = tmp_path / "config.json"
    config.write_text('{"draft_vocab_size": 32000}', encoding="utf-8")
    ran = _run_local(tmp_path, playbook, f"config_json={config}")[step["id"]]
    assert (ran["status"], ran["stdout"]) == ("passed", "32000\n"), ran


def test_a_command_retyped_to_put_a_typo_right_is_no_step(tmp_path):
    """`nvidai-smi` (command not found), then `nvidia-smi`: before, the typo read as a trigger
    and its correction as "the first step of a change of approach", so the playbook's first step
    ran `nvidai-smi` (exit 127 on every host) and the analysis counted a pivot."""
    doc, _ = _session(
        tmp_path,
        ("ssh root@gpu01 nvidai-smi", "bash: line 1: nvidai-smi: command not found", 127),
        ("ssh root@gpu01 nvidia-smi", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
        HEALTH,
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0),
    )
    runs = [s["run"] for s in doc["steps"]]
    assert runs == ["curl -sf http://localhost:30000/health", "tail -n 20 {{ sglang_log }}"], runs
    analysis = analyze_path(next(tmp_path.glob("*.jsonl")))
    assert [(p.trigger_seq, p.seq) for p in analysis.pivots] == [(6, 7)], analysis.pivots


def test_a_host_reached_through_the_playbooks_host_is_one_hop_from_it(tmp_path):
    """The session reached gpu02 through gpu01, the playbook's host. Before: the step ran the
    whole line on gpu01, `ssh root@gpu01 'ssh {{ host_gpu02 }} ...'` (gpu01 ssh'd to itself, with
    a literal gpu01 left in) or `ssh -J root@gpu01 {{ host_gpu02 }} ...` (jumped through itself)."""
    doc, _ = _session(
        tmp_path, HEALTH,
        ("ssh root@gpu01 'ssh gpu02 nvidia-smi -L'", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0), HEALTH,
        ("ssh -J root@gpu01 alice@gpu03 'tail -n 20 /var/log/sglang.log'", "accept len: 1.02", 0),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "accept len: 3.10", 0),
    )
    runs = [s["run"] for s in doc["steps"]]
    assert runs == ["curl -sf http://localhost:30000/health", "ssh {{ host_gpu02 }} nvidia-smi -L",
                    "ssh alice@{{ host_gpu03 }} 'tail -n 20 /var/log/sglang.log'"], runs
    assert doc["description"].endswith("--host root@gpu01."), doc["description"]


def test_the_user_of_a_url_with_a_password_is_no_host(tmp_path):
    """Before: `https://admin:hunter2secret@registry.internal/...` became
    `https://{{ host_admin }}:{{ admin_secret }}@registry.internal/...`: the password was a
    secret var first, and the URL's host pattern, not reading a var in the user part, took the
    user for the host (a `host_admin: admin` var) and left the fleet host literal."""
    doc, _ = _session(
        tmp_path,
        ("ssh root@gpu01 'curl -sf https://admin:hunter2secret@registry.internal/v2/_catalog'",
         "curl: (22) The requested URL returned error: 401", 22),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "accept len: 1.02", 0),
    )
    assert doc["steps"][0]["run"] == \
        "curl -sf https://admin:{{ admin_secret }}@{{ host_registry_internal }}/v2/_catalog", doc["steps"]
    assert doc["vars"] == {"admin_secret": "", "host_registry_internal": "registry.internal",
                           "sglang_log": "/var/log/sglang.log"}
    assert "hunter2secret" not in dump_playbook(doc)


def test_a_fleet_host_named_as_a_word_is_a_var_as_in_a_url(tmp_path):
    """`curl http://10.1.2.8:30000/health` became `http://{{ host_10_1_2_8 }}:...`, but before,
    `ping -c1 10.1.2.8` and `nc -zv gpu02 30000` (gpu02: a host the session's ssh reached) kept
    the session's literal host, so a run for another fleet checked the old one. A host inside a
    path (`/data/gpu02`) is no host."""
    doc, _ = _session(
        tmp_path,
        ("ssh root@gpu02 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
        ("ssh root@gpu01 'nc -zv gpu02 30000'", "nc: connect to gpu02 port 30000 (tcp) failed: Connection refused", 1),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "accept len: 1.02", 0),
        ("ssh root@gpu01 'ping -c1 -W1 10.1.2.8'", "1 packets transmitted, 0 received, 100% packet loss", 1),
        ("ssh root@gpu01 'ls -la /data/gpu02'", "total 0", 0),
    )
    runs = [s["run"] for s in doc["steps"]]
    assert runs == ["nc -zv {{ host_gpu02 }} 30000", "tail -n 20 {{ sglang_log }}", "ping -c1 -W1 {{ host_10_1_2_8 }}",
                    "ls -la {{ gpu02 }}"], runs
    assert (doc["vars"]["host_gpu02"], doc["vars"]["host_10_1_2_8"], doc["vars"]["gpu02"]) == (
        "gpu02", "10.1.2.8", "/data/gpu02")


def test_a_why_cut_from_long_reasoning_starts_at_a_word(tmp_path):
    """The analyzer keeps the last 320 characters of the reasoning; with no sentence starting in
    their first half the why began inside a word: "IDIA-SMI 550 DRIVER banner...", "…lier I saw"."""
    for pad in range(0, 30):
        reasoning = ("Earlier I saw the NVIDIA-SMI 550 DRIVER banner and "
                     + "the verify step rejects most tokens on the boxes " * 5 + "x" * pad
                     + " so let me read the server log now:")
        m = _Writer("9a1b0000-0000-4000-8000-00000000d038", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
        m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
        m.bash(*HEALTH[:2], exit_code=7)
        m.bash("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "accept len: 1.02", text=reasoning)
        path = tmp_path / f"{pad}.jsonl"
        path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
        why = distill_playbook(analyze_path(path))["steps"][-1]["why"]
        first = why.lstrip("…").split()[0]
        assert f" {first} " in f" {reasoning} ", (pad, why)
        # (the failure in words: was "after connection: curl: ...", hardening 72)
        assert why.endswith("It was the first step of a change of approach after curl: (7) Failed to "
                            "connect to localhost port 30000 after 0 ms: Connection refused [msg 2]."), why


def test_a_script_ssh_read_from_a_local_file_is_no_step(tmp_path):
    """`ssh gpu01 'bash -s' < ./check_gpu.sh` ran a script that is a file where the session ran,
    whose text the session does not show. Before: the step `bash -s < ./check_gpu.sh` on the
    host ("No such file or directory" there). Input from /dev/null reads no file."""
    doc, _ = _session(
        tmp_path,
        ("ssh root@gpu01 'bash -s' < ./check_gpu.sh", "GPU 0: ECC errors 12", 1),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "accept len: 1.02", 0),
    )
    assert [s["run"] for s in doc["steps"]] == ["tail -n 20 {{ sglang_log }}"], doc["steps"]
    assert not ssh_reads_local_file("ssh gpu01 'python3 -' < /dev/null")
    assert not ssh_reads_local_file("ssh gpu01 'grep x < /var/log/sglang.log'")  # the host's file


def test_a_look_at_the_working_folder_is_no_step(tmp_path):
    """`ls -la` right after a failure is the first step of a change of approach, but as a step
    it listed whatever folder the run started in (the playbook's github_issue.traj.json had
    one). A listing that names its folder is a check and stays."""
    for listing, run in (("ls -la", None), ("ls -la /models/eagle3 | head", "ls -la {{ eagle3 }} | head")):
        folder = tmp_path / str(run is None)
        folder.mkdir()
        doc, _ = _session(folder, HEALTH, (f"ssh root@gpu01 '{listing}'", "config.json\nmodel.safetensors", 0))
        assert [s["run"] for s in doc["steps"]] == ["curl -sf http://localhost:30000/health"] + ([run] if run else [])
