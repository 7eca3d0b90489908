"""A speculators draft whose config.json was edited away from its weights (num_key_value_heads,
SD704; hidden_size, SD204): the configs step names the key, and the hidden_layout and
drafter_eval steps, whose probes load the draft and fail on the same misfit, added each a
generic SD003 warning ("step could not run") with the loader's message: the root cause said
three times, twice as a failure of spec-debug's. They now say they did not run because of
the configs step's finding (an info line), as for a head or embedding whose rows are not the
config's draft_vocab_size or vocab_size (the vocab step's SD303); in a playbook without the
configs step (drafter_accuracy) the step still fails as SD003, naming the misfit. Runs the
real playbooks with the local transport on a world saved by speculators 0.9.0, the server's
command given as a user gives it (`--var server_cmdline=...`): with none, the launch step
audits whatever SGLang or vLLM server runs on this machine, and the fake servers the probe
tests start (tests/diagnose/fake_servers.py) run there whenever a pytest worker beside this
one is in those tests: SD101 from another test's server came first in the findings. Each run
here has such a server beside it."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.playbook.loader import load_playbook  # noqa: E402
from spec_debug.runner.engine import HostTarget, Run, RunOptions  # noqa: E402
from spec_debug.runner.local import LocalTransport  # noqa: E402
from spec_debug.runner.reporter import Reporter  # noqa: E402
from spec_debug.store import RunStore  # noqa: E402
from tests.diagnose.fake_servers import server_process  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("misfit-steps"), seed=1)


def _edited(tmp_path: Path, world: Path, key: str, value) -> Path:
    root = tmp_path / "edited"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    (config if key == "draft_vocab_size" else config["transformer_layer_config"])[key] = value
    path.write_text(json.dumps(config, indent=2))
    return root


def _run(playbook: str, root: Path, out: Path):
    """The playbook on this machine, its probes' torch on one thread (see test_demo.py), beside
    another deployment's server (SGLang serving the demo's models)."""
    loaded = load_playbook(playbook)
    variables = {"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                 "hidden_states": str(root / "data"), "engine": "vllm", "engine_version": "0.12.0",
                 "python": sys.executable, "device": "cpu", "max_samples": "3"}
    if "server_cmdline" in loaded.playbook.vars:  # the world's vLLM server, as trained (3 steps)
        spec = json.dumps({"method": "eagle3", "model": str(root / "draft"), "num_speculative_tokens": 3})
        variables["server_cmdline"] = shlex.join(["vllm", "serve", str(root / "target"), "--speculative-config", spec])
    other_server = [sys.executable, "-c", "import time; time.sleep(300)", "-m", "sglang.launch_server",
                    "--model-path", str(DEMO / "target"), "--speculative-algorithm", "EAGLE3",
                    "--speculative-draft-model-path", str(DEMO / "draft"), "--speculative-num-steps", "1"]
    with pytest.MonkeyPatch.context() as env, server_process(other_server):
        env.setenv("OMP_NUM_THREADS", "1")
        run = Run(loaded, [HostTarget(name="h", connect=LocalTransport, transport="local")],
                  RunStore.create(out, loaded.playbook.name), variables, RunOptions(reporter=Reporter()))
        return run.execute()


@pytest.mark.parametrize("key, value, cause, step", [("num_key_value_heads", 4, "SD704", "configs"),
                                                     ("hidden_size", 64, "SD204", "configs"),
                                                     # the configs step reads the head's and
                                                     # embedding's rows from the headers, and
                                                     # the vocab step does not say it again
                                                     ("draft_vocab_size", 200, "SD303", "configs"),
                                                     ("vocab_size", 300, "SD303", "configs")])
def test_the_steps_that_load_the_draft_name_the_earlier_finding(tmp_path, world, key, value, cause, step):
    record = _run("perf_regression", _edited(tmp_path, world, key, value), tmp_path / "run")
    assert [(f.step, f.code) for f in record.findings if f.severity != "info"] == [(step, cause)]
    for step, what in (("hidden_layout", "layout probe not run"),
                       ("drafter_eval", "standalone accuracy not measured")):
        [line] = [f for f in record.findings if f.step == step and "does not describe its weights" in f.evidence[0]]
        assert line.code == "SD004" and line.severity == "info"
        assert line.evidence[0].startswith(f"{what}: the draft's config.json does not describe its "
                                           f"weights ({cause}, reported above): ")
        assert f"{key}" in line.evidence[0]
        assert line.facts["provide"] == f"the draft's config.json fixed as {cause} says"
    assert not [f for f in record.findings if f.code == "SD003"]


def test_without_the_configs_step_the_eval_step_still_fails_on_the_misfit(tmp_path, world):
    record = _run("drafter_accuracy", _edited(tmp_path, world, "num_key_value_heads", 4), tmp_path / "run")
    [failed] = [f for f in record.findings if f.code == "SD003"]
    assert failed.step == "drafter_eval" and failed.severity == "warning"
    assert "the draft could not be loaded: " in failed.evidence[0]
    assert "layers.0.self_attn.k_proj.weight has 16 rows" in failed.evidence[0]


def test_a_healthy_draft_is_measured_by_both_steps(tmp_path, world):
    record = _run("perf_regression", world, tmp_path / "run")
    assert not [f for f in record.findings if f.severity == "error" or f.code == "SD003"]
    assert not [f for f in record.findings if "does not describe its weights" in f.evidence[0]]
