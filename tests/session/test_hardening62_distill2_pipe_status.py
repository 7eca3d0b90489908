"""distill: a step whose pipeline ends in head or tail says that its status is that program's.

`ls /models/eagle3 | head` and `python3 check.py 2>&1 | tail -n 5` exit with head's and tail's 0
in bash without pipefail (bash(1), Pipelines), as they did in the session's shell: run as a step,
a missing folder or a crashed check "passed", with nothing in the step to say the status hides
it. The step keeps bash's default (pipefail would fail `cat big.log | head` with 141 when head
stops reading first, and `grep ERROR log | tail` where grep found nothing) and its why says so.
"""

from __future__ import annotations

import pytest

from tests.session.test_hardening38_distill import HEALTH, _run_local, _session

NOTE = "Its status is `{1}`'s, as in the session's shell: where `{0}` fails, the step still passes"


@pytest.mark.parametrize("command, programs", [
    ("ssh root@gpu01 'ls -la /models/eagle3 | head'", ("ls", "head")),
    ("ssh root@gpu01 'python3 /opt/checks/accept.py 2>&1 | tail -n 5'", ("python3", "tail")),
    ("ssh root@gpu01 'CUDA_VISIBLE_DEVICES=0 /usr/bin/python3 /opt/checks/accept.py | head -n 3'", ("python3", "head")),
])
def test_the_why_says_what_the_status_hides(tmp_path, command, programs):
    doc, _ = _session(tmp_path, HEALTH, (command, "x", 0))
    assert NOTE.format(*programs) in doc["steps"][1]["why"], doc["steps"][1]


@pytest.mark.parametrize("command", [
    "ssh root@gpu01 'tail -n 20 /var/log/sglang.log'",
    "ssh root@gpu01 'set -o pipefail; python3 /opt/checks/accept.py 2>&1 | tail -n 5'",
    "ssh root@gpu01 'nvidia-smi | grep H200'",
])
def test_no_word_where_the_status_is_the_commands(tmp_path, command):
    doc, _ = _session(tmp_path, HEALTH, (command, "x", 0))
    assert "Its status is" not in doc["steps"][1]["why"], doc["steps"][1]


def test_the_step_passes_as_the_session_did_and_says_why(tmp_path):
    doc, playbook = _session(tmp_path, HEALTH, ("ssh root@gpu01 'ls -la /models/eagle3-missing | head'",
                                                "ls: cannot access '/models/eagle3-missing': No such file or directory",
                                                0))
    step = doc["steps"][1]
    assert step["run"] == "ls -la {{ eagle3_missing }} | head", step
    ran = _run_local(tmp_path, playbook, f"eagle3_missing={tmp_path / 'nowhere'}")[step["id"]]
    assert (ran["status"], ran["exit_code"]) == ("passed", 0), ran
    assert "No such file or directory" in ran["stderr"], ran
    assert NOTE.format("ls", "head") in step["why"]
