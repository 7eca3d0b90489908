"""On a cluster the server is changed through it: `kubectl set env deployment/sglang SPEC_TOPK=4`,
`kubectl apply -f sglang.yaml`, `helm upgrade sglang ./chart --set speculative.topk=4` roll the
pods out again with the new spec (Kubernetes docs, "Deployments": a rollout "is triggered if and
only if the Deployment's Pod template is changed"). Each was no change (kind "other"): a rise after
one was told after nothing, the postmortem said "No change in the session was followed by a rise",
and `helm upgrade` was not even a change of the host (a distilled playbook kept it as a read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.host_changes import changes_host, redeploys
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening67_install_folder import _BENCH, _session

_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100"


def _resolution(tmp_path: Path, command: str) -> list[str]:
    steps = [(_BENCH_CMD, _BENCH.format("60.5"), "/root"), (command, "", "/root"),
             (_BENCH_CMD, _BENCH.format("120.3"), "/root")]
    return postmortem_view(analyze_path(_session(tmp_path / "s.jsonl", steps)))["resolution"]


@pytest.mark.parametrize("command", [
    "kubectl set env deployment/sglang SPEC_TOPK=4",
    "kubectl -n ml apply -f k8s/sglang-deployment.yaml",
    "oc replace -f sglang.yaml",
    "helm upgrade sglang ./charts/sglang --set speculative.topk=4 -n ml",
    "helm -n ml upgrade --install sglang ./charts/sglang -f values-eagle3.yaml",
])
def test_a_deployment_changed_through_the_cluster_is_the_change(tmp_path: Path, command: str) -> None:
    assert _resolution(tmp_path, command) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 6] after `{command}` [msg 3]."]


@pytest.mark.parametrize("command", [
    "kubectl get deploy sglang -o yaml", "kubectl -n ml describe pod sglang-0", "helm list -n ml",
    "helm get values sglang", "kubectl apply --dry-run=client -f k8s/sglang-deployment.yaml",
    "helm upgrade sglang ./charts/sglang --dry-run"])
def test_a_look_at_the_cluster_is_no_change(tmp_path: Path, command: str) -> None:
    assert not redeploys(command)
    assert _resolution(tmp_path, command) == []


def test_helm_changes_the_cluster() -> None:
    assert changes_host("helm upgrade sglang ./charts/sglang --set speculative.topk=4") == "helm upgrade"
    assert changes_host("helm --kube-context prod uninstall sglang") == "helm uninstall"
    assert changes_host("helm status sglang") is None
    assert changes_host("helm template ./charts/sglang") is None
