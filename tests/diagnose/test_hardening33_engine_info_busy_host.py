"""engine_info on a busy host: the server's interpreter does not answer in time.

The probe asks the server's own interpreter for its package versions (a second Python that walks
importlib.metadata over the site-packages). On a GPU host under load, or with the venv on a slow
shared filesystem, that ask ran past its 30 s and the step had no server version ("could not be
run: Command ... timed out"), falling back to the probe's own Python or --var engine_version.
The site-packages the server process has mapped (/proc/PID/maps) name the same dist-info, which
the probe reads without running anything.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from spec_debug.probes import engine_info

SITE = "/opt/venv/lib/python3.12/site-packages"


def _host(tmp_path: Path, interpreter_body: str) -> tuple[Path, str]:
    proc_dir = tmp_path / "proc"
    (proc_dir / "4242" / "ns").mkdir(parents=True)
    (proc_dir / "self" / "ns").mkdir(parents=True)
    # the same mount namespace as the probe: not a container
    os.symlink("mnt:[4026531840]", proc_dir / "4242" / "ns" / "mnt")
    os.symlink("mnt:[4026531840]", proc_dir / "self" / "ns" / "mnt")
    (proc_dir / "4242" / "maps").write_text(
        f"7f2c1a000000-7f2c1c000000 r-xp 00000000 00:3a 1234567 {SITE}/torch/lib/libtorch_cuda.so\n")
    info = proc_dir / "4242" / "root" / SITE.lstrip("/") / "vllm-0.11.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.4\nName: vllm\nVersion: 0.11.0\n")
    python = tmp_path / "venv" / "bin" / "python3"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n" + interpreter_body)
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return proc_dir, str(python)


def test_an_interpreter_that_does_not_answer_in_time_leaves_the_mapped_versions(tmp_path, monkeypatch):
    proc_dir, python = _host(tmp_path, "exec sleep 30\n")
    monkeypatch.setattr(engine_info, "_ASK_TIMEOUT_S", 1)
    server = engine_info.server_packages({"pid": 4242, "argv": [python, "-m", "vllm.entrypoints.openai.api_server"]},
                                         proc=proc_dir)
    assert server["packages"]["vllm"]["version"] == "0.11.0"
    assert "did not list its packages within 1 s" in server["note"]
    assert "/proc/4242/maps" in server["note"]


def test_an_interpreter_that_fails_says_why_and_the_mapped_versions_stand(tmp_path):
    proc_dir, python = _host(tmp_path, "echo 'ImportError: broken venv' >&2; exit 1\n")
    server = engine_info.server_packages({"pid": 4242, "argv": [python, "-m", "vllm.entrypoints.openai.api_server"]},
                                         proc=proc_dir)
    assert server["packages"]["vllm"]["version"] == "0.11.0"
    assert "ImportError: broken venv" in server["note"]


def test_nothing_mapped_keeps_the_reason_and_no_packages(tmp_path, monkeypatch):
    proc_dir, python = _host(tmp_path, "exec sleep 30\n")
    (proc_dir / "4242" / "maps").write_text("")
    monkeypatch.setattr(engine_info, "_ASK_TIMEOUT_S", 1)
    server = engine_info.server_packages({"pid": 4242, "argv": [python]}, proc=proc_dir)
    assert server["packages"] is None
    assert server["note"].endswith("did not list its packages within 1 s")
