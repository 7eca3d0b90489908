"""api._nested_aux_ids_note names eagle_aux_hidden_state_layer_ids nested in a speculators
config's transformer_layer_config (where vLLM and speculators do not read it). Any other value
there than a list (a hand edit's single int, a null) made list() raise, a traceback from
`drafter eval` on a config that ran before the note existed; nobody reads that key, so such a
value is passed over like an absent one."""

from __future__ import annotations

from types import SimpleNamespace

from spec_debug.eagle3.api import _nested_aux_ids_note


def _cfg(nested):
    return SimpleNamespace(format="speculators", aux_layer_ids=None, raw={
        "speculators_model_type": "eagle3",
        "transformer_layer_config": {"model_type": "llama",
                                     "eagle_aux_hidden_state_layer_ids": nested}})


def test_a_value_that_is_not_a_list_is_passed_over():
    for nested in (5, None, "1,3,6", {"ids": [1, 3, 6]}):
        assert _nested_aux_ids_note(_cfg(nested), [2, 4, 5]) is None


def test_a_list_is_still_named_unless_it_is_the_default():
    note = _nested_aux_ids_note(_cfg([1, 3, 6]), [2, 4, 5])
    assert note is not None and note.startswith(
        "config.json has eagle_aux_hidden_state_layer_ids [1, 3, 6] inside "
        "transformer_layer_config")
    assert _nested_aux_ids_note(_cfg([2, 4, 5]), (2, 4, 5)) is None
