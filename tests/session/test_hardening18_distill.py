"""A distilled playbook is one an engineer keeps: its steps run with no one at a terminal, a
container on the host is reached from the host, one check is one step, and each `why` reads
as a reason. Read on the repository's real sessions (tests/session/data_*) and on sessions
written the way Claude Code writes them (incident_story._Writer)."""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

DATA = Path(__file__).parent
ZSH_LOG = DATA / "data_hardening18_text" / "zsh_ssh_gpu01.log"
REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"


def _session(tmp_path: Path, *calls: tuple[str, str, int], reasoning: str | None = None) -> dict:
    """The playbook of a Claude Code session that makes ``calls`` (command, output, exit code)."""
    m = _Writer("9a1b0000-0000-4000-8000-00000000d018", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing; the server runs in the sglang container.")
    for k, (command, output, exit_code) in enumerate(calls):
        m.bash(command, output, exit_code=exit_code, text=reasoning if k == len(calls) - 1 else None)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")  # the issue contract: it validates
    return doc


def _shell_log(tmp_path: Path, typed: str, output: str) -> Path:
    """The real zsh log of an engineer on gpu01 with one more command typed after the crash."""
    text = ZSH_LOG.read_text(encoding="utf-8")
    text = text.replace("(sgl-dev-2) ❯ exit", f"(sgl-dev-2) ❯ {typed}\n{output}\n(sgl-dev-2) ❯ exit")
    path = tmp_path / "zsh_ssh_gpu01.log"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_container_on_the_playbooks_host_is_reached_from_the_host(tmp_path):
    """Before: `ssh root@{{ host_gpu01 }} 'docker exec -it sglang cat ...'`, run with --host gpu01,
    had gpu01 ssh to itself (no key there) and docker refuse -t ("the input device is not a TTY")."""
    doc = _session(
        tmp_path,
        ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
        ("ssh -oStrictHostKeyChecking=no root@gpu01 'docker exec -it sglang cat /sgl-workspace/eagle3/config.json'",
         '{"draft_vocab_size": 32000}', 0),
        ("ssh -J bastion root@gpu01 \"kubectl exec -ti sglang-0 -- tail -n 20 /tmp/server.log\"", "boom", 1),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100", 0),
    )
    runs = [s["run"] for s in doc["steps"]]
    assert "docker exec -i sglang cat {{ config_json }}" in runs
    assert "kubectl exec -i sglang-0 -- tail -n 20 {{ server_log }}" in runs
    assert not any("ssh" in r or "gpu01" in r for r in runs), runs
    assert doc["vars"]["config_json"] == "/sgl-workspace/eagle3/config.json"


def test_a_command_that_waits_for_a_terminal_is_left_out(tmp_path):
    """Before: `ssh root@gpu01` (a login, no command) became a step that had the host ssh to
    itself and wait in a shell, and a Python REPL a step that read an empty stdin and checked
    nothing."""
    doc = _session(
        tmp_path,
        ("ssh root@gpu01", "Pseudo-terminal will not be allocated because stdin is not a terminal.", 255),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100", 0),
        ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
        ("ssh root@gpu01 python3", "", 0),
        ("ssh root@gpu01 'ps -eo pid,args | grep [l]aunch_server'", "4242 python -m sglang.launch_server", 0),
        ("ssh root@gpu01 'sudo -i'", "sudo: a terminal is required to read the password", 1),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0),
    )
    runs = [s["run"] for s in doc["steps"]]
    assert "nvidia-smi -L" in runs and "tail -n 20 {{ sglang_log }}" in runs, runs
    assert all(r.strip() and r not in ("python3", "sudo -i") and "ssh" not in r for r in runs), runs

    repl = _shell_log(tmp_path, "python3", "Python 3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0] on linux\n"
                                           ">>> import torch\n>>> torch.cuda.is_available()\nFalse\n>>> exit()")
    with pytest.raises(UsageError, match="nothing to distill"):
        distill_playbook(analyze_path(repl))
    with pytest.raises(UsageError, match="nothing to distill"):
        distill_playbook(analyze_path(_shell_log(tmp_path, "htop", "")))


def test_top_typed_in_a_shell_runs_once_in_batch_mode(tmp_path):
    """Before: `top` with a 30 s limit; without a terminal top stops at once ("failed tty get")."""
    log = _shell_log(tmp_path, "top", "top - 09:14:02 up 3 days,  1 user,  load average: 0.00, 0.01, 0.05")
    doc = distill_playbook(analyze_path(log))
    (step,) = doc["steps"]
    assert step["run"] == "top -b -n 1" and "timeout" not in step
    playbook = tmp_path / "top.yaml"
    playbook.write_text(dump_playbook(doc), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--out", str(tmp_path / "runs")], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr


def test_one_check_is_one_step_and_another_place_is_another(tmp_path):
    """Before: `cat ~/m/config.json` and `cat /home/alice/m/config.json` were two identical steps,
    and `nvidia-smi` in the serving container was merged into the host's `nvidia-smi`."""
    quiet = [("ssh alice@gpu01 uptime", "up 3 days", 0)] * 5  # a change of approach is to a kind not seen in 5 calls
    doc = _session(
        tmp_path,
        ("ssh alice@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
        ("ssh alice@gpu01 'cat ~/m/config.json'", "{}", 0), *quiet,
        ("ssh alice@gpu01 'grep -c accept /var/log/sglang.log'", "0", 1),
        ("ssh alice@gpu01 'cat /home/alice/m/config.json'", "{}", 0), *quiet,
        ("ssh alice@gpu01 'python3 -c \"import sglang\"'", "ModuleNotFoundError: No module named 'sglang'", 1),
        ("ssh alice@gpu01 nvidia-smi", "No devices were found", 6), *quiet,
        ("ssh alice@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
        ("ssh alice@gpu01 'docker exec sglang nvidia-smi'", "No devices were found", 6),
    )
    runs = [s["run"] for s in doc["steps"]]
    assert runs.count("cat {{ config_json }}") == 1, runs
    assert "nvidia-smi" in runs and "docker exec sglang nvidia-smi" in runs, runs
    ids = [s["id"] for s in doc["steps"]]
    assert len(ids) == len(set(ids))
    titles = {s["run"]: s["title"] for s in doc["steps"]}
    assert (titles["nvidia-smi"], titles["docker exec sglang nvidia-smi"]) == (
        "Checking the GPUs: nvidia-smi", "Checking the GPUs: nvidia-smi (in docker sglang)")
    assert {"gpu_status_nvidia_smi", "gpu_status_nvidia_smi_in_sglang"} <= set(ids), ids


def test_a_request_step_is_named_by_its_endpoint(tmp_path):
    """Before: `health_localhost`, `health_localhost_2`, ... one per endpoint of the server."""
    failing = ("python3 -c 'import sglang'", "ModuleNotFoundError: No module named 'sglang'", 1)
    quiet = [("uptime", "up 3 days", 0)] * 5
    doc = _session(tmp_path, failing, ("curl -s localhost:30000/get_server_info", "{}", 0), *quiet,
                   failing, ("curl -s http://localhost:30000/v1/models", "{}", 0))
    assert [s["id"] for s in doc["steps"]][-2:] == ["health_get_server_info", "health_v1_models"]


def test_a_why_is_the_reasoning_not_the_tool_call(tmp_path):
    """mini-swe-agent writes its command in a fence after its thought (```mswea_bash_command
    cat ...```); reasoning.why_text keeps the last 320 characters, cut mid-word."""
    doc = distill_playbook(analyze_path(DATA / "data_h15" / "github_issue.traj.json"))
    whys = [s["why"] for s in doc["steps"]]
    assert whys[0].startswith("I'll help you solve this issue. Let me first examine the content of the file")
    assert not any("```" in w or "mswea_bash_command" in w for w in whys), whys

    long = ("Reading the crash once more, " + "the draft forward concatenates in the wrong order " * 6
            + "so I'll compare against the reference. Let me read the speculators forward:")
    doc = _session(tmp_path, ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
                   ("ssh root@gpu01 'grep -n cat /opt/speculators/core.py'", "357: torch.cat", 0), reasoning=long)
    why = next(s["why"] for s in doc["steps"] if "core_py" in s["run"])
    assert why.startswith("Let me read the speculators forward."), why


def test_a_bold_title_of_the_reasoning_is_a_sentence(tmp_path):
    """Codex heads a reasoning summary with a bold title (data_h8/formats/codex_exec_json_0.39.jsonl:
    "**Checking the server log** I suspect..."). Before: the asterisks stayed in the why."""
    doc = _session(tmp_path, ("curl -sf http://localhost:30000/health", REFUSED, 7),
                   ("tail -n 50 /var/log/sglang.log", "accept len: 1.00", 0),
                   reasoning="**Checking the server log**\n\nI suspect the draft model was not loaded.")
    assert doc["steps"][-1]["why"].startswith("Checking the server log. I suspect the draft model was not loaded.")


def test_a_host_var_is_one_a_step_uses():
    """Before: the cp1252 shell log gave `host_gpu01: gpu01` in vars with no step reading it."""
    doc = distill_playbook(analyze_path(DATA / "data_h9" / "train_cp1252.log"))
    assert "host_gpu01" not in doc["vars"]


def _real_sessions() -> list[str]:
    found = glob.glob(str(DATA / "data_*" / "**"), recursive=True)
    found += glob.glob(str(DATA.parent / "data" / "transcripts" / "**"), recursive=True)
    return sorted(f for f in found if os.path.isfile(f) and not f.endswith(("README.md", "SOURCE.md")))


def test_every_real_session_that_distills_gives_a_playbook_to_keep():
    kept = 0
    for path in _real_sessions():
        try:
            doc = distill_playbook(analyze_path(path))
        except UsageError:
            continue
        kept += 1
        load_playbook_text(dump_playbook(doc), "distilled.yaml")
        # a command step's run, a built-in check's with (its draft_model and target_model vars)
        runs = "\n".join(s["run"] if "run" in s else " ".join(s["with"].values()) for s in doc["steps"])
        unused = [v for v in doc["vars"] if not re.search(r"\{\{ " + v + r"\b", runs)]
        assert not unused, (path, unused)
        commands = [s["run"] for s in doc["steps"] if "run" in s]
        assert len(set(commands)) == len(commands), path
        for step in doc["steps"]:
            assert "```" not in step["why"] and step["why"][:1].isupper(), (path, step["why"])
    assert kept >= 8


def test_a_quoted_path_on_the_host_is_a_var_that_renders_back():
    """The real h12 session loads the checkpoint in a `python3 -c` whose path sits in escaped
    double quotes. Before: `/models/eagle3/pytorch_model.bin` stayed in `run:`, so the playbook
    checked that one path on every host."""
    from spec_debug.playbook.templating import TemplateSite, render

    session = DATA / "data_h12" / "2025-08-14-why-is-accept-len-10-on-gpu01.txt"
    analysis = analyze_path(session)
    doc = distill_playbook(analysis)
    (step,) = [s for s in doc["steps"] if "run" in s]  # (and the built-in check of what it found)
    assert "/models/" not in step["run"] and doc["vars"]["pytorch_model_bin"] == "/models/eagle3/pytorch_model.bin"
    typed = next(c.inner for c in analysis.commands if c.seq == step["provenance"]["seq"])
    assert render(step["run"], doc["vars"], TemplateSite(step["id"], "run"), shell=True) == typed
    # another path value is quoted for the double quotes it sits in
    moved = render(step["run"], {**doc["vars"], "pytorch_model_bin": '/data/a "b"/m.bin'}, TemplateSite("s", "run"),
                   shell=True)
    assert 'torch.load(\\"/data/a \\"b\\"/m.bin\\")' in moved


def test_a_host_in_a_url_is_a_var_when_the_session_never_sshed():
    """The real Codex rollout queries gpu01 over HTTP from where it ran. Before: `gpu01` stayed
    in `run:`, so the playbook queried gpu01 for any host it was pointed at."""
    doc = distill_playbook(analyze_path(DATA / "data_hardening18_codex" / "rollout-2026-10-05T16-00-00-tool-ends.jsonl"))
    runs = [s["run"] for s in doc["steps"]]
    assert "curl -s http://{{ host_gpu01 }}:30000/get_server_info" in runs, runs
    assert doc["vars"]["host_gpu01"] == "gpu01"


def test_only_fleet_hosts_of_urls_become_vars(tmp_path):
    failing = ("python3 -c 'import sglang'", "ModuleNotFoundError: No module named 'sglang'", 1)
    quiet = [("uptime", "up 3 days", 0)] * 5  # a change of approach is to a kind not seen in 5 calls
    doc = _session(
        tmp_path,
        failing, ("curl -s http://10.1.230.174:30000/get_server_info", '{"speculative_num_steps": 1}', 0), *quiet,
        failing, ("curl -s http://[fd00::5]:8000/health", "ok", 0), *quiet,
        failing, ("curl -sf http://localhost:30000/health", "ok", 0), *quiet,
        failing, ("curl -s https://serving.example.com:30000/get_server_info", "{}", 0),
    )
    runs = "\n".join(s["run"] for s in doc["steps"])
    assert "http://{{ host_10_1_230_174 }}:30000/get_server_info" in runs
    assert "http://[{{ host_fd00_5 }}]:8000/health" in runs and doc["vars"]["host_fd00_5"] == "fd00::5"
    assert "http://localhost:30000/health" in runs and "https://serving.example.com:30000/" in runs


def test_a_quoted_token_in_a_script_stays_a_string_literal(tmp_path):
    """Before: `token = "hf_..."` in a Python heredoc became `token = {{ hf_token }}`, which
    renders as `token = hf_...`: a NameError, the step failed whatever token was passed."""
    token = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz123456"
    script = f"python3 - <<'PY'\ntoken = \"{token}\"\nprint('token length', len(token))\nPY"
    doc = _session(tmp_path, ("nvidia-smi -L", "NVIDIA-SMI has failed because it couldn't communicate with the "
                                              "NVIDIA driver.", 9), (script, "token length 37", 0))
    text = dump_playbook(doc)
    assert token not in text
    playbook = tmp_path / "token.yaml"
    playbook.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--var", "hf_token=hf_passed_by_the_user", "--out", str(tmp_path / "runs"), "--json"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    step = next(s for s in doc["steps"] if "token" in s["run"])
    assert 'token = "{{ hf_token }}"' in step["run"]
    ran = next(s for s in json.loads(done.stdout)["steps"] if s["id"] == step["id"])
    assert (ran["status"], ran["stdout"]) == ("passed", f"token length {len('hf_passed_by_the_user')}\n")


def test_the_description_cuts_the_report_after_a_whole_word():
    """The 1,000-event incident story's report is longer than the description keeps. Before:
    "…runs on 10.1.230.174 (ssh…. Run against the host…": cut mid-phrase, then a full stop."""
    from tests.session.incident_story import analyzed_story

    story, analysis = analyzed_story()
    description = distill_playbook(analysis)["description"]
    prompt = " ".join(analysis.prompts[0].text.split())
    cut = description.split(": ", 1)[1].split("…", 1)[0]
    assert prompt.startswith(cut) and prompt[len(cut)] in " ,;:(", description
    assert "…. " not in description and "… Run against the host the session used" in description


def test_a_command_typed_on_another_host_is_sent_there(tmp_path):
    """The real zsh log: `top` typed at gpu01's prompt, then the engineer moved to gpu02, where
    most chosen steps ran. Before: the step ran `top` on gpu02, the playbook's host."""
    log = _shell_log(tmp_path, "top", "top - 09:14:02 up 3 days,  1 user,  load average: 0.00, 0.01, 0.05")
    log.write_text(log.read_text(encoding="utf-8") + (
        "➜  ~ ssh gpu02\n(sgl-dev-2) ❯ python3 -c 'import sglang'\nModuleNotFoundError: No module named 'sglang'\n"
        "(sgl-dev-2) ❯ tail -n 2 /tmp/sglang.log\naccept len: 1.00\n(sgl-dev-2) ❯ exit\nlogout\n"
        "Connection to gpu02 closed.\n"), encoding="utf-8")
    doc = distill_playbook(analyze_path(log))
    assert doc["description"].endswith("--host gpu02.")
    assert [s["run"] for s in doc["steps"]] == [
        "ssh {{ host_gpu01 }} 'top -b -n 1'", "python3 -c 'import sglang'", "tail -n 2 {{ sglang_log }}"]
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
