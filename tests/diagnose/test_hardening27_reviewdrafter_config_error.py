"""The configs step with a draft (or target) folder that is found but whose config.json is
damaged (a hand-edited trailing comma): the model_configs probe reports the folder with its
config_error (hostfiles.config_and_problem names the line and column), yet the step said
'no draft config.json could be read' and asked for '--var draft_model=DIR', the folder it
had been given. Now the line is the config's own problem."""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import configs_step
from spec_debug.probes import model_configs
from spec_debug.probes.registry import ProbeContext

DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 64,
         "num_hidden_layers": 1, "vocab_size": 128, "draft_vocab_size": 64}
TARGET = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
          "num_hidden_layers": 4, "vocab_size": 128, "max_position_embeddings": 4096}


def _lines(tmp_path, draft_text: str, target_text: str) -> list[str]:
    for name, text in (("draft", draft_text), ("target", target_text)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(text)
    host = model_configs.run({"draft_model": str(tmp_path / "draft"),
                              "target_model": str(tmp_path / "target")})
    facts = configs_step.parse(host)
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": "vllm", "version": "0.11.0"}, **facts},
                       vars={})
    return [" ".join(f.evidence) + " | " + f.title for f in configs_step.check(ctx)]


def test_a_damaged_draft_config_is_named_with_its_line(tmp_path):
    broken = json.dumps(DRAFT, indent=1)[:-2] + ",\n}"  # a trailing comma on the last line
    [line] = _lines(tmp_path, broken, json.dumps(TARGET))
    assert "draft_model=DIR" not in line and "no draft config.json" not in line
    assert line.startswith(f"{tmp_path / 'draft' / 'config.json'}: not valid JSON (Expecting property name enclosed in double quotes, line 10 column 1)")


def test_a_damaged_target_config_is_named_with_its_line(tmp_path):
    lines = _lines(tmp_path, json.dumps(DRAFT), "{\"hidden_size\": 64,}")
    [target] = [line for line in lines if "RoPE not compared" in line]
    assert target.startswith(f"{tmp_path / 'target' / 'config.json'}: not valid JSON (Expecting property name enclosed in double quotes, line 1 column 20)")
    assert "--var target_model=DIR" not in target
