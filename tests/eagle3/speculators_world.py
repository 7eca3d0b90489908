"""A tiny world as speculators 0.9.0 saves it: a real HF Llama verifier and an Eagle3 draft
over it, and hidden states captured from the verifier as vLLM captures them. Shared by the
drafter tests that damage it (test_faults) and that rewrite it per pipeline (test_real_inputs_*);
and the reference-side helpers of the equivalence tests (speculators' logits per TTT step).

Building a world costs 1-2 s of CPU (a verifier, a draft, reference forwards), and some 30 test
modules each asked for one of a dozen kinds: each kind is now built once per process and copied
(see _copied), byte for byte what the build writes there, with the global torch RNG left as
the build leaves it."""

from __future__ import annotations

import atexit
import copy
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

H, V, DV, NL = 32, 256, 128, 8
AUX = [2, 4, 5]


_BUILT: dict[str, tuple[Path, Any, torch.Tensor]] = {}  # kind -> (its one build, verifier, RNG after)
_CACHE: list[Path] = []


def _copied(kind: dict[str, Any], root: Path, build: Callable[[Path], Any]) -> Any:
    """What ``build(root)`` does and returns, built once per ``kind`` in this process: the
    build's files are copied to root (the draft's config names its verifier by absolute path,
    so that path is rewritten to root's), the global torch RNG is set to the state the build
    left, and the returned model is a copy the caller may change."""
    key = json.dumps(kind, sort_keys=True, default=str)
    if key not in _BUILT:
        if not _CACHE:
            _CACHE.append(Path(tempfile.mkdtemp(prefix="speculators_world_")))
            atexit.register(shutil.rmtree, _CACHE[0], True)
        built = Path(tempfile.mkdtemp(prefix="kind", dir=_CACHE[0]))
        result = build(built)
        _BUILT[key] = (built, result, torch.get_rng_state())
    built, result, rng = _BUILT[key]
    shutil.copytree(built, root, dirs_exist_ok=True)
    config = root / "draft" / "config.json"
    config.write_text(config.read_text().replace(str(built), str(root)))
    torch.set_rng_state(rng)
    return copy.deepcopy(result)


def save_verifier_and_draft(root: Path, *, draft_flags: dict[str, Any] | None = None,
                            before_save: Callable[[Any], None] | None = None) -> Any:
    """Save target/ (the verifier) and draft/ (speculators' Eagle3DraftModel) under root, from
    seed 0; returns the verifier. ``draft_flags`` go to Eagle3SpeculatorConfig (norm flags);
    ``before_save`` may change the verifier's weights before it is saved (that world is not
    shared)."""
    if before_save is not None:
        return _save_verifier_and_draft(root, draft_flags=draft_flags, before_save=before_save)
    return _copied({"draft_flags": draft_flags}, root,
                   lambda built: _save_verifier_and_draft(built, draft_flags=draft_flags))


def _save_verifier_and_draft(root: Path, *, draft_flags: dict[str, Any] | None = None,
                             before_save: Callable[[Any], None] | None = None) -> Any:
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    kw = {"vocab_size": V, "hidden_size": H, "intermediate_size": 64, "num_attention_heads": 4,
          "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 128}
    verifier = LlamaForCausalLM(LlamaConfig(num_hidden_layers=NL, **kw)).eval()
    if before_save is not None:
        before_save(verifier)
    verifier.save_pretrained(root / "target")
    layer_config = LlamaConfig(num_hidden_layers=1, **kw)
    layer_config._attn_implementation = "eager"
    config = Eagle3SpeculatorConfig(
        transformer_layer_config=layer_config, draft_vocab_size=DV, eagle_aux_hidden_state_layer_ids=AUX,
        **(draft_flags or {}),
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig.from_pretrained(str(root / "target"))))
    draft = Eagle3DraftModel(config)
    selected = torch.sort(torch.randperm(V)[:DV]).values
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    draft.load_vocab_mappings(t2d, selected - torch.arange(DV))
    draft.load_verifier_weights()
    draft.eval().save_pretrained(root / "draft")
    return verifier


def save_perturbed_draft(out_dir: Path, verifier_dir: Path, layer_config: Any, *, aux: list[int],
                         draft_vocab: int, vocab: int, seed_name: str, flags: dict[str, Any] | None = None) -> Any:
    """speculators' Eagle3DraftModel on ``layer_config`` (a transformers decoder config), saved
    to out_dir, with every norm != 1 and every bias != 0 so a norm or bias the forward skips
    shows in the logits. Seeded from ``seed_name`` (crc32: the same in every process, unlike
    hash()); a draft vocab smaller than ``vocab`` gets a random sorted t2d/d2t."""
    import zlib

    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig

    layer_config._attn_implementation = "eager"
    config = Eagle3SpeculatorConfig(
        transformer_layer_config=layer_config, draft_vocab_size=draft_vocab, eagle_aux_hidden_state_layer_ids=aux,
        **(flags or {}),
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig.from_pretrained(str(verifier_dir))))
    seed = zlib.crc32(seed_name.encode())
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = Eagle3DraftModel(config)
    if draft_vocab < vocab:
        selected = torch.sort(torch.randperm(vocab, generator=generator)[:draft_vocab]).values
        t2d = torch.zeros(vocab, dtype=torch.bool)
        t2d[selected] = True
        model.load_vocab_mappings(t2d, selected - torch.arange(draft_vocab))
    model.load_verifier_weights()
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "verifier" in name:
                continue
            if "norm" in name:
                param.normal_(1.0, 0.3, generator=generator)
            elif name.endswith(".bias"):
                param.normal_(0.0, 0.5, generator=generator)
    model.eval().save_pretrained(out_dir)
    return model


def vllm_style_states(verifier: Any, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(token_ids [T], hidden_states [T, aux + 1, H] bf16): the inputs to layers AUX and the
    last layer's output before the final norm, as vLLM captures them (transformers 5 puts the
    post-norm state last in `hidden_states`, so the final slot is taken at the norm's input)."""
    final = []
    hook = verifier.model.norm.register_forward_pre_hook(lambda _m, args: final.append(args[0]))
    try:
        with torch.no_grad():
            hidden = verifier(ids[None], output_hidden_states=True).hidden_states
    finally:
        hook.remove()
    slots = [hidden[j][0] for j in AUX] + [final[0][0]]
    return ids, torch.stack(slots, dim=1).to(torch.bfloat16).contiguous()


def draft_inputs(sample) -> tuple[Any, Any]:
    """What a draft takes for a hs-format Sample: the aux states of rows 0..T-2 and the tokens
    of rows 1..T-1 (row t's states predict token t+1)."""
    T = sample.length - 1
    return sample.slots[:-1, :-1].reshape(1, T, -1), sample.token_ids[1:][None]


def reference_logits(model, aux, ids, steps: int) -> list:
    """speculators' logits at every TTT step, taken from its lm_head as the forward runs."""
    captured = []
    hook = model.lm_head.register_forward_hook(lambda _m, _i, out: captured.append(out.detach()))
    try:
        with torch.no_grad():
            model(hidden_states=aux, input_ids=ids, document_ids=torch.zeros_like(ids), ttt_steps=steps)
    finally:
        hook.remove()
    return captured


def make_targets_informative(model, samples) -> None:
    """Set the verifier's last state at 2 rows in 3 to the draft's own step-0 (pre-norm) state,
    so accuracies are far from 0 and comparing them with speculators' means something."""
    for sample in samples:
        aux, ids = draft_inputs(sample)
        states = []
        hook = model.norm.register_forward_hook(lambda _m, inp, _o: states.append(inp[0].detach()))
        with torch.no_grad():
            model(hidden_states=aux, input_ids=ids, document_ids=torch.zeros_like(ids), ttt_steps=1)
        hook.remove()
        own = states[0][0]  # [T, H] draft pre-norm state (row t scores verifier row t+1)
        rows = torch.arange(own.shape[0]) % 3 != 2
        sample.final[1:][rows] = own[rows]
        sample.slots[1:, -1][rows] = own[rows]


def save_informative_world(root: Path, *, seed: int, draft_flags: dict[str, Any] | None = None) -> Path:
    """target/ and draft/ as transformers and speculators save them (the draft's config names
    target/ as its verifier), and data/ with three samples as vLLM's extraction writes them
    (bf16 states), whose targets the draft often hits, so a wrong weight or forward shows as a
    lower accuracy. Returns root."""
    _copied({"seed": seed, "draft_flags": draft_flags, "informative": True}, root,
            lambda built: _save_informative_world(built, seed=seed, draft_flags=draft_flags))
    return root


def _save_informative_world(root: Path, *, seed: int, draft_flags: dict[str, Any] | None) -> Path:
    from safetensors.torch import save_file
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    from spec_debug.eagle3.data import read_sample

    verifier = save_verifier_and_draft(root, draft_flags=draft_flags)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(seed)
    paths = [root / "data" / f"hs_{i}.safetensors" for i in range(3)]
    for i, path in enumerate(paths):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (14 + i,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(path))
    config = Eagle3SpeculatorConfig.from_pretrained(str(root / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    reference = Eagle3DraftModel.from_pretrained(str(root / "draft"), config=config).eval()
    samples = []
    for path in paths:
        sample = read_sample(path)
        sample.slots = sample.slots.float()
        sample.final = sample.slots[:, -1]  # one tensor, so both views change together
        samples.append(sample)
    make_targets_informative(reference, samples)
    for path, sample in zip(paths, samples):
        save_file({"token_ids": sample.token_ids,
                   "hidden_states": sample.slots.to(torch.bfloat16).contiguous()}, str(path))
    return root
