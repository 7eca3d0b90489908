"""analyze: aux layer ids compared in the agent's words are a layer mismatch (SD201/SD202).

An agent reads the draft's config.json with the file tool (no command) and writes "Training used
layer ids [3, 31, 59] but the draft config says [2, 30, 58]." Only the config key's spelling
(``aux_hidden_state_layer_ids: [...]``) was read as layer ids, so the mismatch the agent itself
stated gave no finding at all. The lists of a sentence that states layer ids are now read too;
a sentence that plans a check or asks ("Let me check whether the layer ids are [2, 30, 58]") is not.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

_CONFIG = '{"architectures": ["LlamaForCausalLMEagle3"], "eagle_aux_hidden_state_layer_ids": [2, 30, 58]}'


def _session(tmp_path, *texts: str, read_config: bool = True):
    w = _Writer("53530000-0000-4000-8000-0000000000d1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    if read_config:
        w.tool("Read", {"file_path": "/models/e3/config.json"}, _CONFIG)
    for text in texts:
        w.say(text)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_shifted_ids_stated_after_a_read_are_sd202(tmp_path):
    a = _session(tmp_path, "Training used layer ids [3, 31, 59] but the draft config says [2, 30, 58].")
    assert [(f.code, f.evidence) for f in a.findings] == [
        ("SD202", ["[msg 2] layer ids [2, 30, 58] vs [msg 3] [3, 31, 59]"])]


def test_different_ids_in_one_sentence_alone_are_sd201(tmp_path):
    a = _session(tmp_path, "The trainer's layer IDs were [1, 23, 44], the served ones are [2, 30, 58].",
                 read_config=False)
    assert [(f.code, f.evidence) for f in a.findings] == [
        ("SD201", ["[msg 1] layer ids [1, 23, 44] vs [msg 1] [2, 30, 58]"])]


def test_a_planned_check_or_a_question_states_no_ids(tmp_path):
    a = _session(tmp_path, "Let me check whether the layer ids are [3, 31, 59] in training.",
                 "Are the layer ids [1, 23, 44] what SGLang captures?")
    assert a.findings == []


def test_other_lists_in_prose_are_no_layer_ids(tmp_path):
    a = _session(tmp_path, "The token ids [128000, 9906] decode fine; acceptance per step was [1, 1, 0].")
    assert a.findings == []


def test_the_config_key_named_in_a_sentence_is_read_as_prose(tmp_path):
    said = "The config's eagle_aux_hidden_state_layer_ids is [1, 23, 44], but training used [2, 30, 58]."
    a = _session(tmp_path, said, read_config=False)
    assert [(f.code, f.evidence) for f in a.findings] == [
        ("SD201", ["[msg 1] layer ids [1, 23, 44] vs [msg 1] [2, 30, 58]"])]
