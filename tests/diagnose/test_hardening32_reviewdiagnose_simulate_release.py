"""SGLANG_SIMULATE_ACC_LEN on an SGLang release that does not read it.

Until sgl-project/sglang#10771 ("Use simulate acc len from `sglang.environ`", after 0.5.2) the
verify step read `SIMULATE_ACC_LEN` (speculative/eagle_utils.py `os.environ.get("SIMULATE_ACC_LEN")`);
the SGLANG_-prefixed variable was no setting of theirs, and the accept length they log is the
draft's. DFLASH ignored the variable until sgl-project/sglang#32595 (merged 2026-07-29). The audit
said a 0.5.1 server's, or a 0.5.10 DFLASH server's, acceptance was the benchmark knob's.
"""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_hardening32_diagnose_simulated_acceptance import SGLANG


def _simulated(command: str, version: str | None) -> bool:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    engine: dict[str, Any] = {"engine": {"name": "sglang", "version": version}} if version else {}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts={**facts, **engine})
    return any(f.code == "SD004" and "simulates acceptance" in f.evidence[0] for f in launch_step.check(ctx))


def test_a_release_reading_the_old_name_is_not_said_to_simulate() -> None:
    command = "SGLANG_SIMULATE_ACC_LEN=2 " + SGLANG
    for version in ("0.4.10", "0.5.1", "0.5.2"):
        assert not _simulated(command, version), version
    # the image's tag says the release too
    docker = "docker run --gpus all -e SGLANG_SIMULATE_ACC_LEN=2 lmsysorg/sglang:v0.5.2 " + SGLANG
    assert not _simulated(docker, None)
    # a release that reads it, a source build that may, and an unknown one keep the line
    for version in ("0.5.3", "0.5.10", "0.5.2.post1.dev40+g1234567", None):
        assert _simulated(command, version), version
    assert _simulated(docker.replace("v0.5.2", "v0.5.9"), None)


def test_dflash_reads_it_only_from_0_5_17() -> None:
    # sgl-project/sglang#32595 (merged 2026-07-29, "DFLASH ignored it"): 0.5.17 is the first release after
    dflash = SGLANG.replace("--speculative-algorithm EAGLE3", "--speculative-algorithm DFLASH").replace("--speculative-num-steps 3 --speculative-eagle-topk 1 ", "")
    command = "SGLANG_SIMULATE_ACC_LEN=2 " + dflash
    for version in ("0.5.10", "0.5.16"):
        assert not _simulated(command, version), version
    for version in ("0.5.17", "0.5.16.post1.dev3+g1234567", None):
        assert _simulated(command, version), version
