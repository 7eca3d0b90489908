"""--target of another architecture than speculators_config.verifier names gets a note
(api._other_verifier_note). The note compared class names, so a local copy of the very
verifier saved as its text model (Llama4ForCausalLM for a draft trained on
Llama4ForConditionalGeneration, Gemma3ForCausalLM for Gemma3ForConditionalGeneration) was
called "another model". vLLM's registry and SGLang's model_config map both classes of a
family to one implementation; the family (the class name without its For<Task> head) is
compared now. Configs as speculators (VerifierConfig.from_config) and transformers write them."""

from __future__ import annotations

from types import SimpleNamespace

from spec_debug.eagle3.api import _other_verifier_note


def _draft(architectures: list[str]):
    raw = {"speculators_model_type": "eagle3", "speculators_config": {
        "verifier": {"name_or_path": "org/model", "architectures": architectures}}}
    return SimpleNamespace(raw=raw, verifier="org/model")


def _target(architectures: list[str]):
    return SimpleNamespace(path="/models/local", config=SimpleNamespace(
        raw={"architectures": architectures}))


def test_the_text_model_of_the_named_multimodal_verifier_is_no_other_model():
    for named, local in (("Llama4ForConditionalGeneration", "Llama4ForCausalLM"),
                         ("Gemma3ForConditionalGeneration", "Gemma3ForCausalLM"),
                         ("Qwen3ForCausalLM", "Qwen3ForCausalLM")):
        assert _other_verifier_note(_draft([named]), _target([local])) == []


def test_another_family_is_still_named():
    for named, local in (("Qwen3ForCausalLM", "LlamaForCausalLM"),
                         ("Qwen3ForCausalLM", "Qwen3MoeForCausalLM"),
                         ("Llama4ForConditionalGeneration", "LlamaForCausalLM")):
        notes = _other_verifier_note(_draft([named]), _target([local]))
        assert len(notes) == 1 and notes[0].startswith(
            f"--target /models/local is a {local}, but the draft's config names the verifier "
            f"org/model ({named}, speculators_config.verifier)"), notes


def test_no_architectures_no_note():
    assert _other_verifier_note(_draft([]), _target(["LlamaForCausalLM"])) == []
    assert _other_verifier_note(_draft(["LlamaForCausalLM"]), _target([])) == []
