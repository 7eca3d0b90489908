"""The launch probe's model lookup: a model folder this user may not read (another user's
0700 draft: describe_model raises PermissionError) is passed by, and the other models of the
command line are still described (was: the launch probe failed whole). As root a 0700 folder
stays readable, so the refusal is the one describe_model would raise."""

from __future__ import annotations

import json

from spec_debug.probes import launch_flags


def test_an_unreadable_draft_folder_leaves_the_target_described(tmp_path, monkeypatch):
    target = tmp_path / "target"
    target.mkdir()
    (target / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "hidden_size": 64}))
    draft = tmp_path / "draft"
    draft.mkdir()
    (draft / "config.json").write_text("{}")
    real = launch_flags.describe_model

    def refusing(ref, *args, **kwargs):
        if str(ref).startswith(str(draft)):
            raise PermissionError(13, "Permission denied", str(draft))
        return real(ref, *args, **kwargs)

    monkeypatch.setattr(launch_flags, "describe_model", refusing)
    argv = ["vllm", "serve", str(target), "--speculative-config", json.dumps({"model": str(draft), "method": "eagle3"})]
    models = launch_flags.find_models(launch_flags.model_refs(argv), argv, None)
    assert list(models) == [str(target)]
    assert models[str(target)]["found"]
