"""vLLM's `-sc={...}` (and `-sc.model=PATH`) on a running server: the draft's config is read.

argparse splits a one-dash short option at its `=` as it splits `--speculative-config={...}`
(CPython Lib/argparse.py `_parse_optional`), so `vllm serve MODEL -sc='{"model": ...}'` serves
that draft, and the audit parsed it so. The launch probe's model lookup (launch_flags.model_refs)
only split `--flag=value` words: for a server found in /proc, the `-sc=` word was skipped whole,
the draft's config.json was never read, and every check of the draft against the flags (trained
steps, its layer ids, its vocabulary) silently had nothing to read. Runs the probe on a fake vLLM
server (a sleeping process with `vllm serve`'s command line) and a draft saved by speculators.
"""

from __future__ import annotations

import json
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import launch_step  # noqa: E402
from spec_debug.probes import launch_flags  # noqa: E402
from tests.diagnose.fake_servers import server_process  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("short-equals")
    save_verifier_and_draft(root)
    return root


@pytest.mark.parametrize("spelling", ["json", "dotted"])
def test_the_draft_of_a_one_dash_equals_option_is_read_from_the_running_server(world, spelling):
    draft = str(world / "draft")
    if spelling == "json":
        flags = ["-sc=" + json.dumps({"method": "eagle3", "model": draft, "num_speculative_tokens": 3})]
    else:
        flags = ["-sc.method=eagle3", f"-sc.model={draft}", "-sc.num_speculative_tokens=3"]
    argv = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "vllm.entrypoints.cli.main", "serve",
            str(world / "target"), *flags]
    with server_process(argv) as process:
        found = [p for p in launch_flags.server_processes() if p["pid"] == process["pid"]]
        chosen = launch_flags.choose_server(found)
    models = launch_flags.find_models(launch_flags.model_refs(chosen["argv"]), chosen["argv"], None)
    assert draft in models and models[draft]["config"]["speculators_model_type"] == "eagle3"
    facts = launch_step.parse({"source": f"/proc/{chosen['pid']}/cmdline", "argv": chosen["argv"], "models": models})
    launch = facts["launch"]
    assert (launch["draft_model"], launch["num_steps"]) == (draft, 3)
    assert launch["draft_config"] is not None and launch["trained_steps"] == 3
