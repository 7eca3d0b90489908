"""OpenShift's ``oc rsh [-c container] POD [COMMAND ...]`` runs its command in the pod, as ``oc
exec POD -- COMMAND`` does, with no ``--`` before it (OpenShift AI serves vLLM this way). It was
a command run where the session ran, its inner the whole line: ``oc rsh sglang-0 cat
/tmp/server.log`` read no log of the pod, and its Decode batch readings were the laptop's."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell import parse_target


@pytest.mark.parametrize(("command", "container", "inner"), [
    ("oc rsh sglang-0 nvidia-smi", "pod:sglang-0", "nvidia-smi"),
    ("oc rsh -c server sglang-0 nvidia-smi -L", "pod:sglang-0", "nvidia-smi -L"),
    ("oc -n ml rsh pod/vllm-7f9c cat /tmp/server.log", "pod:vllm-7f9c", "cat /tmp/server.log"),
    ("oc rsh --shell=/bin/bash sglang-0 nvidia-smi", "pod:sglang-0", "nvidia-smi"),
])
def test_oc_rsh_runs_its_command_in_the_pod(command: str, container: str, inner: str) -> None:
    target = parse_target(command)
    assert (target.container, target.inner) == (container, inner)


def test_a_word_rsh_elsewhere_is_no_pod(tmp_path: Path) -> None:
    assert parse_target("oc get pods rsh").container is None
    assert parse_target("grep rsh notes.txt").container is None


def test_readings_of_a_pods_log_read_with_oc_rsh_are_the_pods(tmp_path: Path) -> None:
    path = tmp_path / "terminal.log"
    path.write_text("me@laptop:~$ oc rsh sglang-0 tail -n 1 /tmp/server.log\n"
                    "[2026-03-02 10:00:05 TP0] Decode batch, #running-req: 1, #token: 412, token usage: 0.01, "
                    "accept len: 1.43, accept rate: 0.71, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0\n")
    doc = analyze_path(path).to_json()
    (command,) = doc["commands"]
    assert (command["container"], command["inner"], command["category"]) == (
        "pod:sglang-0", "tail -n 1 /tmp/server.log", "logs")
