"""A host that runs the no-speculation baseline next to the speculative server.

SD501 needs a baseline measured "of the same server without speculation", so people start
both side by side (two ports, one GPU each). The baseline usually starts first (lower pid):
the audit must read the speculative server's flags, not report the plain one as clean.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.probes import launch_flags

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
SLEEP = [sys.executable, "-c", "import time; time.sleep(60)"]


@pytest.fixture
def baseline_then_speculative():
    baseline = subprocess.Popen(SLEEP + ["-m", "sglang.launch_server", "--model-path", str(DEMO / "target"),
                                         "--port", "30001"])
    speculative = subprocess.Popen(SLEEP + [
        "-m", "sglang.launch_server", "--model-path", str(DEMO / "target"), "--port", "30000",
        "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", str(DEMO / "draft"),
        "--speculative-num-steps", "1", "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "2"])
    time.sleep(0.3)
    yield baseline, speculative
    for proc in (baseline, speculative):
        proc.kill()
        proc.wait()


def test_the_speculative_server_is_chosen_over_an_earlier_baseline(baseline_then_speculative):
    baseline, speculative = baseline_then_speculative
    ours = [p for p in launch_flags.server_processes() if p["pid"] in (baseline.pid, speculative.pid)]
    assert [p["pid"] for p in ours] == [baseline.pid, speculative.pid]  # the baseline comes first
    assert launch_flags.choose_server(ours)["pid"] == speculative.pid
    # end to end: whatever else runs on this machine, the plain baseline is never the one read
    host = launch_flags.run({"server_cmdline": ""})
    assert host["source"] != f"/proc/{baseline.pid}/cmdline"


def test_vllm_speculative_spellings_count_as_speculative():
    plain = {"pid": 1, "argv": ["vllm", "serve", "m", "--port", "8001"]}
    for flags in (["--speculative-config", '{"method": "eagle3"}'], ["-sc", "{}"],
                  ["--speculative_config={}"], ["--speculative-config.method", "mtp"], ["--spec-method", "mtp"]):
        spec = {"pid": 2, "argv": ["vllm", "serve", "m", *flags]}
        assert launch_flags.choose_server([plain, spec])["pid"] == 2, flags
    assert launch_flags.choose_server([plain])["pid"] == 1


# vLLM docs (deployment/k8s.md) run the server as `command: ["/bin/sh", "-c"]` with the whole
# `vllm serve ...` line as one double-quoted YAML string; a --speculative-config JSON inside it
# has its quotes escaped as \".
K8S_SH_C = """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:latest
        command: ["/bin/sh", "-c"]
        args: [
          "vllm serve TARGET --speculative-config '{\\"method\\": \\"eagle3\\", \\"model\\": \\"DRAFT\\", \\"num_speculative_tokens\\": 1}'"
        ]
"""


def test_draft_named_in_an_escaped_json_of_a_k8s_manifest_has_its_config_read():
    from spec_debug.diagnose.steps import launch_step

    manifest = K8S_SH_C.replace("TARGET", str(DEMO / "target")).replace("DRAFT", str(DEMO / "draft"))
    assert '\\"model\\"' in manifest  # the YAML text carries \\" escapes
    host = launch_flags.run({"server_cmdline": manifest})
    assert str(DEMO / "draft") in host["models"]
    facts = launch_step.parse(host)
    assert facts["launch"]["num_steps"] == 1 and facts["launch"]["trained_steps"] == 3
