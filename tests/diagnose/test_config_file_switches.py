"""A switch set false in an SGLang --config file is left out, as SGLang's merger leaves out a
store_true flag that is false, for the switches whose names carry no hint too (the launch
parser's list): ``is-embedding: false`` once became ``--is-embedding false``, and the stray
``false`` after a switch is a word the engine never saw."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.config_file import merge_config

ARGV = ["python3", "-m", "sglang.launch_server", "--config", "serve.yaml"]


@pytest.mark.parametrize("key", ["is-embedding", "stream-output", "enable-metrics", "enable_metrics",
                                 "is_embedding"])
def test_a_switch_set_false_is_left_out_and_true_is_the_bare_flag(key):
    off = merge_config(ARGV, f"model-path: /models/llama\n{key}: false\n")
    on = merge_config(ARGV, f"model-path: /models/llama\n{key}: true\n")
    assert off == ["python3", "-m", "sglang.launch_server", "--model-path", "/models/llama"]
    assert on == off + [f"--{key}"]


def test_a_valued_flag_whose_name_looks_like_a_switch_keeps_its_false():
    # --log-requests-level takes a number though "log-" hints a switch: the merger writes the value
    argv = merge_config(ARGV, "log-requests-level: false\n")
    assert argv[-2:] == ["--log-requests-level", "false"]
