"""A YAML mapping in SGLang's `--config` file (`json-model-override-args:` written as a mapping).

SGLang's current merger writes a mapping as JSON (`_convert_config_to_args` in the sglang 0.5.23
wheel's srt/utils/server_args_config_parser.py: `json.dumps(value)`), so the override applies.
The audit wrote it as a Python repr (`{'architectures': [...]}`, 0.5.6's str()), which the
audit's own JSON reading of --json-model-override-args skipped: the target was judged as its
config.json says, not as the engine builds it.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.config_file import merge_config
from spec_debug.diagnose.steps.common import served_config

ARGV = ["python3", "-m", "sglang.launch_server", "--config", "serve.yaml"]
TEXT = "model-path: /models/llama\njson-model-override-args:\n  architectures: [Qwen3ForCausalLM]\n"


def test_a_mapping_is_written_as_json():
    argv = merge_config(ARGV, TEXT)
    assert argv[-2] == "--json-model-override-args"
    assert json.loads(argv[-1]) == {"architectures": ["Qwen3ForCausalLM"]}


def test_the_files_override_is_the_model_the_engine_builds():
    argv = merge_config(ARGV, TEXT)
    served = served_config({"architectures": ["LlamaForCausalLM"], "model_type": "llama"}, argv)
    assert served["architectures"] == ["Qwen3ForCausalLM"]
