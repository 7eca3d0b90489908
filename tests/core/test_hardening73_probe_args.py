"""A probe argument the probe does not read.

`probe: vocab_maps` with `with: {draft_modle: "{{ draft_model }}"}`: the probe reads its
arguments by name, and the misspelt one was dropped without a word. The run said "SD004 Not
checked: --var draft_model=DIR --var target_model=DIR" to an author who had given it, and
PASSED. Now `playbooks validate` (and `run`, before any host is touched) refuses it at the
key's file:line:column, with the name meant and the arguments the probe takes; `python` (the
host's interpreter) is taken by every probe. A key spelt like no argument was left alone here;
it is refused too since hardening74 (test_hardening74_probe_unread_args.py): the probe never
read it either.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text
from spec_debug.probes.registry import all_probes
from tests.conftest import run_cli

HEAD = "name: drafter\nvars:\n  draft_model: /ckpt/eagle3\n  python: python3\nsteps:\n"


def test_a_misspelt_argument_is_named_with_the_one_meant():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + "  - id: vocab\n    probe: vocab_maps\n    with:\n      python: \"{{ python }}\"\n"
                           "      draft_modle: \"{{ draft_model }}\"\n", "drafter.yaml")
    error = caught.value
    assert (error.line, error.column) == (10, 7)
    assert error.bare_message == "probe 'vocab_maps' takes no argument 'draft_modle' in step 'vocab'"
    assert error.hint == "did you mean 'draft_model'? (vocab_maps takes draft_model, python, target_model, vocab_mapping)"


def test_a_key_spelt_like_no_argument_is_refused_too():
    # Was left alone as the author's own (hardening73); host_info never read it (hardening74).
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + "  - id: host\n    probe: host_info\n    with: {layers: [2, 18, 33]}\n", "d.yaml")
    assert caught.value.bare_message == "probe 'host_info' takes no argument 'layers' in step 'host'"


@pytest.mark.parametrize("written, meant", [("model", "draft_model"), ("engine_ver", "engine_version"),
                                            ("Hidden_States", "hidden_states")])
def test_other_near_misses_name_the_argument(written, meant):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + f"  - id: ev\n    probe: drafter_eval\n    with:\n      {written}: x\n", "d.yaml")
    assert caught.value.hint.startswith(f"did you mean {meant!r}? (drafter_eval takes ")


def test_the_cli_refuses_it_before_any_host(tmp_path):
    playbook = tmp_path / "drafter.yaml"
    playbook.write_text(HEAD + "  - id: vocab\n    probe: vocab_maps\n    with:\n      draft_modle: \"{{ draft_model }}\"\n")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert f"{playbook}:9:7: probe 'vocab_maps' takes no argument 'draft_modle' in step 'vocab'" in result.stderr


def test_the_shipped_playbooks_give_only_arguments_their_probes_take():
    from spec_debug.playbook.loader import load_playbook, shipped_playbook_names

    names = shipped_playbook_names()
    assert [load_playbook(name).playbook.name for name in names] == names
    assert all(probe.args is not None for probe in all_probes().values())
