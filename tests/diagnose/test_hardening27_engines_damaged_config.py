"""A model folder whose config.json is there but not usable (round 27).

People fix a draft's aux layer ids by hand in its config.json; a trailing comma left behind
makes it invalid JSON, which transformers refuses too ("is not a valid JSON file"). The probes
read it as no config at all: the layout probe made no serve plan and said nothing, and
model_configs reported the folder as not found. Now the file, the JSON error's line and the
usual cause are named."""

from __future__ import annotations

from spec_debug.probes import hidden_layout, hostfiles

HAND_EDITED = '{\n  "architectures": ["Qwen3ForCausalLM"],\n  "num_hidden_layers": 36,\n}\n'


def _model(tmp_path, text: str):
    folder = tmp_path / "target"
    folder.mkdir()
    (folder / "config.json").write_text(text)
    return folder


def test_a_trailing_comma_is_named_with_its_line(tmp_path):
    folder = _model(tmp_path, HAND_EDITED)
    info = hostfiles.describe_model(str(folder), with_tensors=False)
    assert info["found"] is False and info["config"] is None
    assert info["config_error"].startswith(f"{folder / 'config.json'}: not valid JSON")
    assert "line 4 column 1" in info["config_error"] and "trailing comma" in info["config_error"]


def test_the_layout_probe_says_why_no_layer_count(tmp_path):
    folder = _model(tmp_path, HAND_EDITED)
    out = hidden_layout.run({"target_model": str(folder), "engine": "vllm"})
    assert "not valid JSON" in out["num_target_layers_unknown"] and "num_target_layers" not in out


def test_other_unusable_files_and_a_missing_one(tmp_path):
    assert "holds a JSON list" in hostfiles.config_and_problem(_model(tmp_path, "[1, 2]"))[1]
    assert hostfiles.config_and_problem(tmp_path / "nowhere") == (None, None)
    good = tmp_path / "good"
    good.mkdir()
    (good / "config.json").write_text('{"num_hidden_layers": 2}')
    assert hostfiles.describe_model(str(good), with_tensors=False).get("config_error") is None
