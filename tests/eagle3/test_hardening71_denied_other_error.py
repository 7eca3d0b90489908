"""A draft whose weight file the probe's user may not open (permission denied), where the
drafter stopped at something else first: a config key of the wrong type, read before any
weight file is opened.

Before: hostfiles.engine_weights_refusal looked only at the folder's listing, so the vocab and
drafter_eval probes said "the probe's user (root) may not open model.safetensors (permission
denied)" and the steps gave SD710's "may not read" wording (or, after the configs step, only an
info line), while the drafter's own error ("config.json: 'draft_vocab_size' is 'many', expected
an integer") was said nowhere: a server running as a user that may read the file would still
not load this draft. Now the refusal is handed off only when the drafter's error names a denied
file ("DIR/model.safetensors: cannot read safetensors header ([Errno 13] Permission denied:
...)", the words eagle3's checkpoint reader gives); otherwise the drafter's error stands. The
world is saved by speculators 0.9.0."""

from __future__ import annotations

import errno
import json
import os
import pathlib
from importlib import import_module
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.probes.hostfiles import engine_weights_refusal  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

WEIGHTS = "model.safetensors"


@pytest.fixture
def shut(tmp_path, monkeypatch):
    """A speculators world whose draft weight file this process may not open (EACCES where the
    file is opened: root, which runs these tests, is stopped by no mode), its draft config's
    draft_vocab_size a word."""
    built = save_informative_world(tmp_path / "w", seed=0)
    config = built / "draft" / "config.json"
    data = json.loads(config.read_text())
    data["draft_vocab_size"] = "many"
    config.write_text(json.dumps(data))
    shut_out = built / "draft" / WEIGHTS
    opener = pathlib.Path.open

    def denied_open(self, *args, **kwargs):
        if Path(self) == shut_out:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return opener(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", denied_open)
    return built


@pytest.mark.parametrize("module", ["vocab_maps", "drafter_eval"])
def test_the_drafters_own_error_stands_when_it_names_no_denied_file(shut, module):
    args = {"draft_model": str(shut / "draft"), "target_model": str(shut / "target"),
            "hidden_states": str(shut / "data")}
    with pytest.raises(CheckpointError) as raised:
        import_module(f"spec_debug.probes.{module}").run(args)
    assert raised.value.message == (f"{shut / 'draft' / 'config.json'}: 'draft_vocab_size' is 'many', "
                                    "expected an integer")


def test_an_error_naming_the_denied_file_is_still_handed_off(shut):
    path = shut / "draft" / WEIGHTS
    error = CheckpointError(f"{path}: cannot read safetensors header ([Errno 13] Permission denied: '{path}')")
    refused = engine_weights_refusal(shut / "draft", error)
    assert refused is not None and set(refused["denied_weight_files"]) == {WEIGHTS}
    assert refused["folder"] == str(shut / "draft")


@pytest.mark.parametrize("message", [
    "DRAFT/config.json: 'draft_vocab_size' is 'many', expected an integer",
    # a longer name that holds the denied one is not it
    "DRAFT/model.safetensors.index.json: weight_map is not a mapping"])
def test_an_error_about_another_file_is_not_handed_off(shut, message):
    error = CheckpointError(message.replace("DRAFT", str(shut / "draft")))
    assert engine_weights_refusal(shut / "draft", error) is None
