"""On a cluster the server is started through it: `kubectl apply -f sglang.yaml`, `helm install
sglang ./chart`. The first such deploy before any reading was told as a change ("Throughput was
first measured after `kubectl apply ...`"), where a first typed launch, or a first `systemctl
start`, is none: it starts what the readings measure. And a deploy on the benchmark's own line
(`kubectl apply -f sglang.yaml && sleep 60 && python -m sglang.bench_serving ...`, of kind
benchmark) was no change at all, where a service restart there is one."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening67_install_folder import _BENCH, _session

_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100"


def _resolution(tmp_path: Path, steps: list[tuple[str, str]]) -> list[str]:
    path = _session(tmp_path / "s.jsonl", [(command, output, "/root") for command, output in steps])
    return postmortem_view(analyze_path(path))["resolution"]


@pytest.mark.parametrize("deploy", [
    "kubectl apply -f k8s/sglang-deployment.yaml",
    "kubectl -n ml apply -f k8s/ && kubectl -n ml rollout status deploy/sglang",
    "helm install sglang ./charts/sglang -n ml -f values-eagle3.yaml",
    "helm upgrade --install sglang ./charts/sglang",
])
def test_the_first_deploy_is_no_change(tmp_path: Path, deploy: str) -> None:
    assert _resolution(tmp_path, [(deploy, ""), (_BENCH_CMD, _BENCH.format("120.3"))]) == []


def test_a_change_before_the_first_deploy_is_still_told(tmp_path: Path) -> None:
    edit = "sed -i 's/topk: 1/topk: 4/' values-eagle3.yaml"
    deploy = "helm install sglang ./charts/sglang -f values-eagle3.yaml"
    assert _resolution(tmp_path, [(edit, ""), (deploy, ""), (_BENCH_CMD, _BENCH.format("120.3"))]) == [
        f"Throughput was first measured after `{edit}` [msg 1]: 120.3 tok/s [msg 6]; "
        "nothing was measured before the changes to compare it with."]


def test_a_second_deploy_before_the_first_reading_is_a_change(tmp_path: Path) -> None:
    steps = [("kubectl apply -f k8s/sglang.yaml", ""), ("kubectl set env deployment/sglang SPEC_TOPK=4", ""),
             (_BENCH_CMD, _BENCH.format("120.3"))]
    assert _resolution(tmp_path, steps) == [
        "Throughput was first measured after `kubectl set env deployment/sglang SPEC_TOPK=4` [msg 3]: "
        "120.3 tok/s [msg 6]; nothing was measured before the changes to compare it with."]


@pytest.mark.parametrize("deploy, shown", [
    ("kubectl apply -f k8s/sglang.yaml",
     "kubectl apply -f k8s/sglang.yaml && sleep 60 && python -m sglang.bench_serving --backend sglang --port 30000…"),
    ("helm upgrade sglang ./charts/sglang --set speculative.topk=4",
     "helm upgrade sglang ./charts/sglang --set speculative.topk=4 && sleep 60 && python -m sglang.bench_serving "
     "--backend…")])
def test_a_deploy_on_the_benchmark_line_is_the_change(tmp_path: Path, deploy: str, shown: str) -> None:
    line = f"{deploy} && sleep 60 && {_BENCH_CMD}"
    said = _resolution(tmp_path, [(_BENCH_CMD, _BENCH.format("60.5")), (line, _BENCH.format("120.3"))])
    assert said == [f"Throughput rose from 60.5 to 120.3 tok/s [msg 4] after `{shown}` [msg 3]."]
