"""A served config changed (`echo SPEC_TOPK=4 >> /etc/default/sglang`, a `sed -i` of the unit file,
of a compose file, of supervisor's program config), then the service restarted to load it
(`systemctl restart sglang`, `docker restart`, `docker compose up -d`, `supervisorctl restart`),
and the throughput rose: the Resolution named the edit alone, and a restart alone before a rise it
did not name at all ("no change"), where a typed relaunch reads "restarting the server".
`supervisorctl restart` was not even a change of the host. The restart is now among the changes
the rise followed, and a first `systemctl start` before any reading is the first launch, no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.host_changes import changes_host, starts_service
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening67_install_folder import _BENCH, _session

_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100"


def _resolution(tmp_path: Path, commands: list[str], first: str = "60.5") -> list[str]:
    steps = [(_BENCH_CMD, _BENCH.format(first), "/root")] if first else []
    steps += [(c, "", "/root") for c in commands] + [(_BENCH_CMD, _BENCH.format("120.3"), "/root")]
    return postmortem_view(analyze_path(_session(tmp_path / "s.jsonl", steps)))["resolution"]


@pytest.mark.parametrize("edit, restart", [
    ("echo 'SPEC_TOPK=4' >> /etc/default/sglang", "sudo systemctl restart sglang"),
    ("sudo sed -i 's/topk 1/topk 4/' /etc/systemd/system/sglang.service",
     "sudo systemctl daemon-reload && sudo systemctl restart sglang"),
    ("sed -i 's/topk: 1/topk: 4/' /srv/sglang/spec.yaml", "docker restart sglang"),
    ("sed -i 's/topk=1/topk=4/' docker-compose.yml", "docker compose up -d"),
    ("sed -i 's/topk 1/topk 4/' /etc/supervisor/conf.d/sglang.conf", "supervisorctl restart sglang"),
    ("sed -i 's/topk 1/topk 4/' /etc/supervisor/conf.d/sglang.conf", "supervisorctl update"),
])
def test_the_restart_that_loaded_an_edit_is_among_the_changes(tmp_path: Path, edit: str, restart: str) -> None:
    assert _resolution(tmp_path, [edit, restart]) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{edit}` [msg 3], `{restart}` [msg 5]."]


@pytest.mark.parametrize("restart", [
    "sudo systemctl restart sglang",
    "sudo systemctl restart sglang && sleep 30 && curl -s localhost:30000/health",  # a health check by its kind
    "docker restart sglang && docker logs --tail 50 sglang",
    "sudo systemctl restart sglang && nvidia-smi",  # a look at the GPUs by its kind
])
def test_a_restart_alone_before_a_rise_is_told(tmp_path: Path, restart: str) -> None:
    assert _resolution(tmp_path, [restart]) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 6] after `{restart}` [msg 3]."]


def test_a_look_at_the_service_is_no_change(tmp_path: Path) -> None:
    assert _resolution(tmp_path, ["systemctl status sglang", "supervisorctl status"]) == []


def test_the_first_start_of_the_service_is_no_change(tmp_path: Path) -> None:
    # nothing read before it: the start begins what the readings measure, as a first launch does
    said = _resolution(tmp_path, ["echo 'SPEC_TOPK=4' >> /etc/default/sglang", "sudo systemctl start sglang"],
                       first="")
    assert said == ["Throughput was first measured after `echo 'SPEC_TOPK=4' >> /etc/default/sglang` [msg 1]: "
                    "120.3 tok/s [msg 6]; nothing was measured before the changes to compare it with."]


def test_supervisorctl_actions() -> None:
    assert changes_host("supervisorctl restart sglang") == "supervisorctl restart"
    assert changes_host("supervisorctl -c /etc/supervisord.conf stop sglang") == "supervisorctl stop"
    assert changes_host("supervisorctl status") is None
    assert changes_host("supervisorctl reread") is None
    assert changes_host("supervisorctl tail -f sglang") is None
    assert starts_service("sudo supervisorctl restart sglang")
    assert starts_service("supervisorctl update")
    assert not starts_service("supervisorctl stop sglang")
    assert not starts_service("docker update --cpus 2 sglang")  # limits changed in place, nothing started
