"""`spec-debug run drafter_accuracy` over a draft whose model.safetensors is the pointer file
git-lfs leaves when `git lfs pull` was not run (a `git clone` of a Hub repository without
git-lfs). vLLM and SGLang open each weight file with safetensors' safe_open (vLLM
model_loader/weight_utils.py safetensors_weights_iterator) and stop with "Error while
deserializing header": the configs step names this SD710 ("A draft weight file the engines
load cannot be read").

Before: the playbook (one step, drafter_eval; no configs step) said PASSED with one SD003
warning (the eval probe failed on the host). The eval step now gives that SD710 with the
drafter's own words and `git lfs pull` first in its fix, and the run fails; the vocab step too
where no configs step ran; after the configs step's SD710 both say only that they did not run.
The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py), then its weights
swapped for the pointer."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import eval_step, vocab_step  # noqa: E402
from spec_debug.probes import drafter_eval, vocab_maps  # noqa: E402
from spec_debug.probes.hostfiles import engine_weights_refusal  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.ssh.test_fleet_faults import load_run  # noqa: E402

POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:{}\nsize 123456\n".format("0" * 64)
SAID = "a git-lfs pointer, not the weights: vLLM and SGLang open every weight file with " \
       "safetensors' safe_open and do not start (\"Error while deserializing header\")"


@pytest.fixture
def root(tmp_path):
    built = save_informative_world(tmp_path / "w", seed=0)
    (built / "draft" / "model.safetensors").write_text(POINTER)
    return built


def _eval(root, host_facts=None):
    raw = drafter_eval.run({"draft_model": str(root / "draft"), "hidden_states": str(root / "data")})
    return eval_step.check(context(eval_step.parse(raw), host_facts or {}))


def _vocab(root, host_facts=None):
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    return vocab_step.check(context(vocab_step.parse(raw), host_facts or {}))


def test_a_pointer_draft_fails_the_drafter_accuracy_run_with_git_lfs_pull(cli, tmp_path, root):
    out = tmp_path / "runs"
    result = cli("run", "drafter_accuracy", "--host", "local", "--out", str(out),
                 "--var", f"draft_model={root / 'draft'}", "--var", f"hidden_states={root / 'data'}",
                 cwd=tmp_path, timeout=300)
    said = result.stdout + result.stderr
    assert "PASSED" not in said, said
    assert result.code != 0, said
    _, record = load_run(out)
    assert [f["code"] for f in record["findings"]] == ["SD710"]
    [finding] = record["findings"]
    assert finding["severity"] == "error"
    assert finding["title"] == "A draft weight file the engines load cannot be read"
    assert finding["evidence"] == [f"{root / 'draft' / 'model.safetensors'}: {SAID}"]
    assert finding["remediation"].startswith(
        "Run `git lfs pull` in the checkpoint repository. Copy or download the draft's weight files again"), finding


def test_the_vocab_step_gives_the_same_sd710_where_no_configs_step_ran(root):
    [finding] = _vocab(root)
    assert (finding.code, finding.severity) == ("SD710", "error")
    assert finding.evidence == [f"{root / 'draft' / 'model.safetensors'}: {SAID}"]
    assert finding.facts["unreadable_weight_files"] == ["model.safetensors"]


def test_after_the_configs_steps_sd710_both_steps_only_say_they_did_not_run(root):
    facts = {"configs": {"raised": ["SD710"]}}
    [measured] = _eval(root, facts)
    [vocab] = _vocab(root, facts)
    assert (measured.code, measured.severity, vocab.code, vocab.severity) == ("SD004", "info", "SD004", "info")
    assert measured.evidence[0] == (
        "standalone accuracy not measured: vLLM and SGLang cannot load the draft's weights (SD710, "
        f"reported above): {root / 'draft' / 'model.safetensors'}: a git-lfs pointer, not the weights")


def test_only_a_file_the_engines_load_is_their_refusal(root):
    """A pointer beside the weights the index names is a file vLLM and SGLang never open
    (filter_duplicate_safetensors_files keeps the index's shards): no refusal of the folder."""
    draft = root / "draft"
    assert engine_weights_refusal(draft) == {
        "message": f"{draft}: the safetensors header of model.safetensors cannot be read",
        "hint": None, "unreadable_weight_files": ["model.safetensors"]}
    (draft / "model.safetensors").rename(draft / "model-00001-of-00001.safetensors")
    (draft / "model.safetensors.index.json").write_text(
        '{"weight_map": {"x": "model-00001-of-00001.safetensors"}}')
    (draft / "old.safetensors").write_text(POINTER)
    assert engine_weights_refusal(draft)["unreadable_weight_files"] == ["model-00001-of-00001.safetensors"]
    (draft / "model-00001-of-00001.safetensors").unlink()
    save_informative_world(root.parent / "again", seed=0)
    (root.parent / "again" / "draft" / "model.safetensors").rename(draft / "model-00001-of-00001.safetensors")
    assert engine_weights_refusal(draft) is None
