"""distill: a command the session ran in its own shell, in its own folder, is not sent to that
folder on the playbook's host.

Claude Code on a laptop ran `ssh root@gpu01 ...` checks and, in its project folder
(/Users/alice/eagle-debug), `python3 checks/accept_len.py --host gpu01`. The playbook runs on
gpu01, and the step was `cd {{ workdir }} && python3 checks/accept_len.py ...` with workdir
defaulting to the laptop's folder: on gpu01 `cd` failed with "No such file or directory" and the
check never ran. Now the folder var is empty and required: the step is skipped with a line naming
it until the user gives the folder that holds the script (on the host, or the laptop's folder with
--host local), and its why says where the session ran it. A session with no remote host keeps its
folder (tests/session/test_hardening39_distill_working_folder.py).
"""

from __future__ import annotations

from pathlib import Path

from tests.session.test_hardening38_distill import _run_local
from tests.session.test_hardening39_distill_working_folder import CHECK, LOW, _claude_session, _playbook

REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"


def _session(tmp_path: Path, folder: Path) -> tuple[dict, Path]:
    return _playbook(tmp_path, _claude_session(
        tmp_path, folder,
        ("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
        ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0),
        ("python3 checks/accept_len.py", f"Traceback (most recent call last):\nRuntimeError: {LOW}", 1),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
    ))


def test_the_laptops_folder_is_not_the_hosts(tmp_path):
    doc, _ = _session(tmp_path, Path("/Users/alice/eagle-debug"))
    (step,) = [s for s in doc["steps"] if "accept_len" in s["run"]]
    assert step["run"] == "cd {{ workdir }} && python3 checks/accept_len.py", step
    assert step["requires"] == ["workdir"], step
    assert doc["vars"]["workdir"] == "", doc["vars"]
    assert ("The session ran it on its own machine, in /Users/alice/eagle-debug, not on the host: "
            "--var workdir=DIR runs it") in step["why"], step["why"]
    # the steps that ran on gpu01 are unchanged
    assert [s["run"] for s in doc["steps"] if s is not step] == [
        "curl -sf http://localhost:30000/health", "tail -n 20 {{ sglang_log }}", "nvidia-smi -L"]


def test_the_step_waits_for_the_folder_then_runs_from_it(tmp_path):
    work = tmp_path / "work"
    (work / "checks").mkdir(parents=True)
    (work / "checks" / "accept_len.py").write_text(CHECK, encoding="utf-8")
    doc, playbook = _session(tmp_path, work)
    (step,) = [s for s in doc["steps"] if "accept_len" in s["run"]]
    skipped = _run_local(tmp_path / "a", playbook)[step["id"]]
    assert skipped["status"] == "skipped", skipped
    ran = _run_local(tmp_path / "b", playbook, f"workdir={work}")[step["id"]]
    assert (ran["exit_code"], ran["stdout"]) == (3, LOW + "\n"), ran


def test_the_laptops_home_is_not_the_hosts(tmp_path):
    """Claude Code started in ~/eagle-debug (a `~` path, as a terminal prompt shows it): the why
    names ~/eagle-debug, not the host user's home (/root/eagle-debug)."""
    doc, _ = _session(tmp_path, Path("~/eagle-debug"))
    (step,) = [s for s in doc["steps"] if "accept_len" in s["run"]]
    assert "The session ran it on its own machine, in ~/eagle-debug, not on the host" in step["why"], step["why"]
