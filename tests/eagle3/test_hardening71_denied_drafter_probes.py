"""The vocab and drafter_eval probes over a draft whose weight file the probe's user may not
open (permission denied): the probe runs as the playbook's ssh user, the server often as
another (a service account, root in a container) that may read the file and load the draft.

Before: the configs step said SD710, a warning naming the probe's user and the file's owner,
but both drafter probes failed with "cannot read safetensors header ([Errno 13] Permission
denied)" and their steps gave an SD003 warning ("step could not run") beside it; with no
configs step (drafter_accuracy) that SD003 warning was all the run said. Now the probes hand
the refusal to their steps (hostfiles.engine_weights_refusal, "denied_weight_files"): after the
configs step's SD710 each says only that it did not run, as for the other SD710 causes; with
no configs step the step gives that same SD710 warning. The world is saved by speculators
0.9.0."""

from __future__ import annotations

import errno
import os
import pathlib
import pwd
import stat
from importlib import import_module
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, eval_step, vocab_step  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

WEIGHTS = "model.safetensors"


@pytest.fixture
def shut(tmp_path, monkeypatch):
    """A speculators world whose draft weight file this process may not open: the errno the
    kernel gives a user the file's mode shuts out (EACCES), raised where the file is opened.
    Root, which runs these tests, is stopped by no mode, and the drafter probes need torch,
    which this host's `nobody` cannot import (test_hardening71_denied_weights runs the configs
    probe as `nobody` over a real mode 0600 file; its listing is the same)."""
    built = save_informative_world(tmp_path / "w", seed=0)
    shut_out = built / "draft" / WEIGHTS
    opener = pathlib.Path.open

    def denied_open(self, *args, **kwargs):
        if Path(self) == shut_out:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return opener(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", denied_open)
    return built


def _probe(module: str, shut) -> dict:
    return import_module(f"spec_debug.probes.{module}").run(
        {"draft_model": str(shut / "draft"), "target_model": str(shut / "target"),
         "hidden_states": str(shut / "data")})


def _configs_facts(shut) -> dict:
    """The host facts the configs step leaves for the steps after it, as the runner keeps them."""
    facts = configs_step.parse(_probe("model_configs", shut))
    found = configs_step.check(context(facts, {}))
    assert ("SD710", "warning") in [(f.code, f.severity) for f in found], [f.evidence for f in found]
    return facts


def _expected_message(shut) -> str:
    return (f"{shut / 'draft'}: the probe's user ({pwd.getpwuid(os.geteuid()).pw_name}) may not open "
            f"{WEIGHTS} (permission denied)")


@pytest.mark.parametrize("module, step, what", [
    ("vocab_maps", vocab_step, "vocabulary maps not checked"),
    ("drafter_eval", eval_step, "standalone accuracy not measured")])
def test_after_the_configs_steps_sd710_warning_the_step_only_says_it_did_not_run(shut, module, step, what):
    raw = _probe(module, shut)
    assert "error" not in raw, raw
    assert set(raw["no_engine_weights"]["denied_weight_files"]) == {"model.safetensors"}
    found = step.check(context(step.parse(raw), _configs_facts(shut)))
    assert [(f.code, f.severity) for f in found] == [("SD004", "info")]
    assert found[0].evidence[0] == (
        f"{what}: the probe's user may not read the draft's weights (SD710, reported above): "
        f"{_expected_message(shut)}")


@pytest.mark.parametrize("module, step", [("vocab_maps", vocab_step), ("drafter_eval", eval_step)])
def test_with_no_configs_step_the_step_gives_the_sd710_warning(shut, module, step):
    raw = _probe(module, shut)
    found = step.check(context(step.parse(raw), {}))
    assert [(f.code, f.severity) for f in found] == [("SD710", "warning")]
    [finding] = found
    assert finding.title == "A draft weight file the probe's user may not read"
    [(name, access)] = raw["no_engine_weights"]["denied_weight_files"].items()
    mode = stat.filemode((shut / "draft" / "model.safetensors").stat().st_mode)
    assert (name, access["mode"]) == ("model.safetensors", mode)
    assert finding.evidence[0].startswith(
        f"the probe ran as {access['user']} (uid {access['uid']}) and may not open model.safetensors "
        f"({mode} {access['owner']} {access['group']}) in {shut / 'draft'} (permission denied)")
