"""distill: a container command that streams until stopped gets a time limit.

`docker stats sglang` (a live stream; docker docs: --no-stream for one reading), `docker events`
without --until, `docker attach` and `kubectl get pods -w` run until someone presses Ctrl-C. In a
session the agent's tool timeout stopped them; as a playbook step they had no timeout (the runner
sets none by default), so the run waited for as long as the container ran. They now get the
FOLLOW_TIMEOUT_S limit `tail -f` and `watch` get, and the why says so.
"""

from __future__ import annotations

import pytest

from spec_debug.session.follow import FOLLOW_TIMEOUT_S, follows_output
from tests.session.test_hardening38_distill import HEALTH, _session


@pytest.mark.parametrize("command, said", [
    ("docker stats sglang", "docker stats"),
    ("docker -H ssh://gpu01 stats", "docker stats"),
    ("podman stats", "podman stats"),
    ("docker compose stats", "docker stats"),
    ("docker events --filter container=sglang", "docker events"),
    ("docker attach sglang", "docker attach"),
    ("kubectl get pods -w", "kubectl get --watch"),
    ("kubectl -n infer get pods --watch", "kubectl get --watch"),
])
def test_a_container_stream_follows_its_output(command, said):
    assert follows_output(command) == said


@pytest.mark.parametrize("command", [
    "docker stats --no-stream sglang",
    "docker container stats --no-stream",
    "docker events --since 10m --until 0s",
    "kubectl get pods -n infer",
    "docker exec sglang ls stats",
    "docker ps",
])
def test_one_reading_ends(command):
    assert follows_output(command) is None


def test_a_watched_pod_listing_stops_after_the_follow_limit(tmp_path):
    """The agent watched the pods (`kubectl get pods -w`, stopped with Ctrl-C: exit 130), saw
    CrashLoopBackOff and read the crashed container's log. Before: the step `kubectl get pods -n
    infer -w` had no timeout, and the playbook's run never ended."""
    doc, _ = _session(tmp_path, (
        "ssh root@gpu01 'kubectl get pods -n infer -w'",
        "NAME       READY   STATUS             RESTARTS\nsglang-0   0/1     CrashLoopBackOff   7", 130), (
        "ssh root@gpu01 'kubectl logs -n infer sglang-0 --previous'", "torch.OutOfMemoryError: CUDA out of memory", 0))
    assert [(s["run"], s.get("timeout")) for s in doc["steps"]] == [
        ("kubectl get pods -n infer -w", FOLLOW_TIMEOUT_S), ("kubectl logs -n infer sglang-0 --previous", None)]
    assert doc["steps"][0]["why"].endswith(
        f"It runs until stopped (kubectl get --watch): the step stops it after {FOLLOW_TIMEOUT_S} s.")
