"""A config copied to read it (`cp /etc/sglang/spec.yaml ./spec.yaml`) was a change of what is
served: any copy onto a *.yaml outside /tmp counted (postmortem._swaps_served), and the Resolution
said the rise came "after `cp /etc/sglang/spec.yaml ./spec.yaml`, relaunching the server". A copy
or move is a change only where its destination is what the server reads: a path a launch of the
session names (or a folder it names), or a service's config under /etc/."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening66_git_checkout import _resolution
from tests.session.test_hardening67_install_folder import _BENCH, _BENCH_CMD, _session

_RELAUNCH = ("after relaunching the server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path "
             "/models/e3` [msg 5].")
_CHANGED = ("after `{}` [msg 3], relaunching the server with `--speculative-algorithm EAGLE3 "
            "--speculative-draft-model-path /models/e3` [msg 5].")


def test_a_copy_made_to_read_a_config_is_no_change(tmp_path: Path) -> None:
    for copy in ("cp /etc/sglang/spec.yaml ./spec.yaml", "cp /etc/sglang/spec.yaml /root/spec.yaml",
                 "cp /models/e3/config.json ~/e3-config.json"):
        assert _resolution(tmp_path, f"ssh gpu01 '{copy}'") == [
            f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] {_RELAUNCH}"], copy


def test_a_copy_over_what_the_server_reads_is_the_change(tmp_path: Path) -> None:
    for copy in ("cp /root/spec-v2.yaml /etc/sglang/spec.yaml",      # a service's config
                 "cp /root/e3-config.json /models/e3/config.json"):  # in the draft folder the launch names
        assert _resolution(tmp_path, f"ssh gpu01 '{copy}'") == [
            f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] {_CHANGED.format(copy)}"], copy


def test_a_relative_copy_the_launch_reads_is_the_change(tmp_path: Path) -> None:
    launch = ("nohup python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
              "--config {} > /tmp/s.log 2>&1 &")
    bench = _BENCH_CMD.replace("vllm bench serve --model", "python -m sglang.bench_serving --model")
    for copy, served, changed in (("cp /etc/sglang/spec.yaml ./spec.yaml", "/etc/sglang/spec.yaml", False),
                                  ("cp spec-v2.yaml spec.yaml", "spec.yaml", True),
                                  ("cp spec-v2.yaml spec.yaml", "/work/spec.yaml", True),   # the folder it ran in
                                  ("cp spec-v2.yaml spec.yaml", "/etc/sglang/spec.yaml", False)):
        path = _session(tmp_path / "s.jsonl", [
            (launch.format(served), "", "/work"),
            (bench, _BENCH.format("60.5"), "/work"),
            (copy, "", "/work"),
            (launch.format(served), "", "/work"),
            (bench, _BENCH.format("120.3"), "/work")])
        got = postmortem_view(analyze_path(path))["resolution"]
        assert len(got) == 1 and got[0].startswith("Throughput rose from 60.5 to 120.3 tok/s [msg 10] after "), got
        assert (f"after `{copy}` [msg 5], " in got[0]) is changed, (copy, served, got)
