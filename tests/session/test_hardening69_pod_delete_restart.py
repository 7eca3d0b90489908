"""On a cluster a served pod is restarted by deleting it: its ReplicaSet starts another with the
spec and ConfigMaps as they are now (Kubernetes docs, "ReplicaSet"). `kubectl delete pod
sglang-0` was no start, where `kubectl rollout restart` is one: a rise after it was told after no
change, and after a ConfigMap edit the Resolution named the edit without the restart that loaded
it. Deleting a Deployment or a Service starts nothing and stays no start."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.host_changes import starts_service
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening67_install_folder import _BENCH, _session

_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100"


def _resolution(tmp_path: Path, commands: list[str]) -> list[str]:
    steps = [(_BENCH_CMD, _BENCH.format("60.5"), "/root"), *[(c, "", "/root") for c in commands],
             (_BENCH_CMD, _BENCH.format("120.3"), "/root")]
    return postmortem_view(analyze_path(_session(tmp_path / "s.jsonl", steps)))["resolution"]


@pytest.mark.parametrize("command", [
    "kubectl delete pod sglang-0",
    "kubectl -n ml delete pods -l app=sglang",
    "kubectl delete po/sglang-7d9f8-abcde -n ml",
    "oc delete pod sglang-0",
])
def test_a_deleted_pod_is_a_restart(tmp_path: Path, command: str) -> None:
    assert starts_service(command)
    assert _resolution(tmp_path, [command]) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 6] after `{command}` [msg 3]."]


def test_the_restart_that_loaded_a_configmap_edit_is_among_the_changes(tmp_path: Path) -> None:
    edit = "kubectl -n ml patch configmap sglang-config -p '{\"data\":{\"SPEC_TOPK\":\"4\"}}'"
    assert _resolution(tmp_path, [edit, "kubectl -n ml delete pod sglang-0"]) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{edit}` [msg 3], "
        "`kubectl -n ml delete pod sglang-0` [msg 5]."]


@pytest.mark.parametrize("command", [
    "kubectl delete deployment sglang", "kubectl delete svc sglang", "kubectl get pod sglang-0",
    "kubectl delete -f k8s/sglang.yaml"])
def test_what_starts_no_pod_is_no_start(command: str) -> None:
    assert not starts_service(command)
