"""A tiny, deterministic EAGLE-3 world for tests and demos, built in seconds on a CPU.

- a synthetic language: per sequence a hidden "regime" picks one of R sparse Markov chains,
  so the next token depends on the previous token AND on context the target must infer;
- a tiny llama-like target trained on it, saved HF-style (`config.json` + `model.safetensors`
  with `model.embed_tokens.weight`, `model.layers.*`, `model.norm.weight`, `lm_head.weight`);
- hidden-state dumps in speculators' hs format (`layer_ids` metadata; optionally "wide" with
  every layer, and one whose first slot is the embedding output);
- an EAGLE-3 draft trained with this package's own forward on the target's states, saved in
  speculators format (config.json with `speculators_model_type: eagle3`; model.safetensors with
  d2t offsets / t2d) without needing speculators installed.

    world = build_world(tmp_path, seed=0)
    evaluate_drafter(world.draft, world.data, world.target)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from spec_debug.eagle3.config import DraftConfig, RopeConfig
from spec_debug.eagle3.data import write_hs_sample
from spec_debug.eagle3.model import DecoderLayer, Eagle3Draft, KVCache, RMSNorm, StepZeroMask


# ------------------------------------------------------------------------------------------
# The language
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Language:
    transitions: Tensor  # [R, V, V] row-stochastic, one chain per regime
    start: Tensor  # [V]

    @classmethod
    def random(cls, vocab: int, regimes: int, generator: torch.Generator) -> "Language":
        # each token has two likely successors per regime (0.75 / 0.15) plus uniform noise
        probs = torch.full((regimes, vocab, vocab), 0.10 / vocab)
        for r in range(regimes):
            first = torch.randint(0, vocab, (vocab,), generator=generator)
            second = torch.randint(0, vocab, (vocab,), generator=generator)
            rows = torch.arange(vocab)
            probs[r, rows, first] += 0.75
            probs[r, rows, second] += 0.15
        probs = probs / probs.sum(-1, keepdim=True)
        return cls(probs, torch.full((vocab,), 1.0 / vocab))

    def sample(self, batch: int, length: int, generator: torch.Generator) -> Tensor:
        regimes = torch.randint(0, self.transitions.shape[0], (batch,), generator=generator)
        tokens = torch.empty(batch, length, dtype=torch.long)
        # The first token names the regime (ids 0..R-1): the target must carry it forward
        # through attention, so the draft needs the target's states, not just the last token.
        tokens[:, 0] = regimes
        tokens[:, 1] = torch.multinomial(self.start.expand(batch, -1), 1, generator=generator)[:, 0]
        for t in range(2, length):
            rows = self.transitions[regimes, tokens[:, t - 1]]  # [B, V]
            tokens[:, t] = torch.multinomial(rows, 1, generator=generator)[:, 0]
        return tokens


# ------------------------------------------------------------------------------------------
# The target: a llama-style decoder built from the same blocks as the draft
# ------------------------------------------------------------------------------------------
def tiny_config(*, vocab: int, hidden: int, layers: int, heads: int = 4, kv_heads: int = 2,
                intermediate: int | None = None, **overrides) -> DraftConfig:
    base = DraftConfig(
        format="speculators", model_type="llama", hidden_size=hidden, target_hidden_size=hidden,
        num_layers=layers, num_heads=heads, num_kv_heads=kv_heads, head_dim=hidden // heads,
        intermediate_size=intermediate or 2 * hidden, rms_norm_eps=1e-6, vocab_size=vocab,
        draft_vocab_size=vocab, attention_bias=False, mlp_bias=False, hidden_act="silu",
        rope=RopeConfig("default", 10000.0, {}), max_position_embeddings=512,
        sliding_window=None, layer_types=("full_attention",) * layers, aux_layer_ids=None,
        num_aux=3, use_aux_hidden_state=True, norm_before_residual=False, norm_before_fc=False,
        fc_norm=False, norm_output=False, speculative_tokens=3, verifier=None, raw={})
    return replace(base, **overrides)


class TinyTarget(nn.Module):
    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.num_layers))
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.lm_head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)
        from spec_debug.eagle3.model import Rotary

        self.rotary = Rotary(cfg.rope, cfg.head_dim, cfg.max_position_embeddings)

    def forward(self, ids: Tensor) -> tuple[Tensor, list[Tensor]]:
        """ids [B, T] -> logits [B, T, V], states: N+1 tensors [B, T, H] in the input-to-layer
        convention (states[0] = embedding output, states[N] = final output before the norm)."""
        B, T = ids.shape
        x = self.embed_tokens(ids)
        cos, sin = self.rotary(torch.arange(T)[None].expand(B, T), x.dtype)
        mask = StepZeroMask.of(T, ids.device)
        states = [x]
        for layer in self.layers:
            x = layer(x, cos, sin, KVCache(), mask, None)
            states.append(x)
        return self.lm_head(self.norm(x)), states

    def save_hf(self, directory: Path) -> None:
        """HF Llama naming, loadable by transformers' LlamaForCausalLM."""
        from safetensors.torch import save_file

        directory.mkdir(parents=True, exist_ok=True)
        cfg = self.cfg
        state = {}
        for name, tensor in self.state_dict().items():
            state[name if name.startswith("lm_head") else f"model.{name}"] = tensor.contiguous()
        save_file(state, str(directory / "model.safetensors"), metadata={"format": "pt"})
        (directory / "config.json").write_text(json.dumps({
            "architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "vocab_size": cfg.vocab_size, "hidden_size": cfg.hidden_size,
            "intermediate_size": cfg.intermediate_size, "num_hidden_layers": cfg.num_layers,
            "num_attention_heads": cfg.num_heads, "num_key_value_heads": cfg.num_kv_heads,
            "head_dim": cfg.head_dim, "rms_norm_eps": cfg.rms_norm_eps,
            "max_position_embeddings": cfg.max_position_embeddings, "hidden_act": "silu",
            "rope_parameters": {"rope_type": "default", "rope_theta": cfg.rope.theta},
            "tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False,
        }, indent=2))


def train_target(target: TinyTarget, language: Language, steps: int, generator: torch.Generator,
                 batch: int = 16, length: int = 48, lr: float = 6e-3) -> float:
    optimizer = torch.optim.AdamW(target.parameters(), lr=lr, weight_decay=0.0)
    loss = torch.tensor(0.0)
    for _ in range(steps):
        ids = language.sample(batch, length, generator)
        logits, _ = target(ids)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return float(loss.detach())


# ------------------------------------------------------------------------------------------
# Vocab map and the draft
# ------------------------------------------------------------------------------------------
def vocab_map(token_counts: Tensor, draft_vocab: int) -> tuple[Tensor, Tensor]:
    """(d2t offsets [DV], t2d [V]) from token frequencies, as speculators vocab_mapping.py:
    top-DV ids, sorted ascending, d2t[i] = selected[i] - i."""
    selected = torch.sort(torch.topk(token_counts.float(), draft_vocab).indices).values
    t2d = torch.zeros(token_counts.shape[0], dtype=torch.bool)
    t2d[selected] = True
    return selected - torch.arange(draft_vocab), t2d


def make_draft_config(target_cfg: DraftConfig, aux_layer_ids: Sequence[int], draft_vocab: int,
                      **flags: bool) -> DraftConfig:
    return replace(target_cfg, num_layers=1, layer_types=("full_attention",),
                   draft_vocab_size=draft_vocab, aux_layer_ids=tuple(aux_layer_ids),
                   num_aux=len(aux_layer_ids), **flags)


def train_draft(draft: Eagle3Draft, target: TinyTarget, language: Language,
                aux_layer_ids: Sequence[int], steps: int, generator: torch.Generator, *,
                ttt_steps: int = 2, batch: int = 16, length: int = 48, lr: float = 5e-3) -> float:
    """KL to the target distribution restricted to the draft vocab, speculators-style alignment
    (shift_batch, then step k's logits row t vs targets row t+k)."""
    params = [p for n, p in draft.named_parameters() if n != "embed_tokens.weight"]
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    selected = draft.t2d.nonzero().reshape(-1)
    loss = torch.tensor(0.0)
    for _ in range(steps):
        ids = language.sample(batch, length, generator)
        with torch.no_grad():
            logits, states = target(ids)
        aux = torch.cat([states[i] for i in aux_layer_ids], dim=-1)  # [B, T, A*H]
        targets = F.log_softmax(logits[:, 1:, selected], dim=-1)  # shift: verifier rows 1..
        loss = torch.tensor(0.0)
        for k, step_logits in enumerate(draft.ttt_steps(aux[:, :-1], ids[:, 1:], ttt_steps)):
            rows = step_logits.shape[1] - k
            pred = F.log_softmax(step_logits[:, :rows], dim=-1)
            loss = loss + F.kl_div(pred, targets[:, k:], log_target=True, reduction="batchmean")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return float(loss.detach())


def save_speculators_draft(draft: Eagle3Draft, directory: Path, *, verifier: str,
                           verifier_layers: int, speculative_tokens: int = 3) -> None:
    """Write the files speculators' save_pretrained writes (config.json + model.safetensors)."""
    from safetensors.torch import save_file

    directory.mkdir(parents=True, exist_ok=True)
    cfg = draft.cfg
    state = {name: t.detach().contiguous() for name, t in draft.state_dict().items()}
    if draft.d2t is not None:
        state["d2t"] = draft.d2t.contiguous()
        state["t2d"] = draft.t2d.contiguous()
    save_file(state, str(directory / "model.safetensors"), metadata={"format": "pt"})
    config = {
        "architectures": ["Eagle3DraftModel"],
        "auto_map": {"": "config.Eagle3SpeculatorConfig"},
        "speculators_model_type": "eagle3",
        "draft_vocab_size": cfg.draft_vocab_size,
        "eagle_aux_hidden_state_layer_ids": list(cfg.aux_layer_ids or ()),
        "norm_before_residual": cfg.norm_before_residual, "norm_before_fc": cfg.norm_before_fc,
        "fc_norm": cfg.fc_norm, "norm_output": cfg.norm_output, "embed_requires_grad": False,
        "target_hidden_size": None, "tie_word_embeddings": False, "dtype": "float32",
        "speculators_config": {
            "algorithm": "eagle3", "default_proposal_method": "greedy",
            "proposal_methods": [{"proposal_type": "greedy", "speculative_tokens":
                                  speculative_tokens, "verifier_accept_k": 1,
                                  "accept_tolerance": 0.0}],
            "verifier": {"name_or_path": verifier, "architectures": ["LlamaForCausalLM"]},
        },
        "transformer_layer_config": {
            "model_type": "llama", "vocab_size": cfg.vocab_size, "hidden_size": cfg.hidden_size,
            "intermediate_size": cfg.intermediate_size, "num_hidden_layers": cfg.num_layers,
            "num_attention_heads": cfg.num_heads, "num_key_value_heads": cfg.num_kv_heads,
            "head_dim": cfg.head_dim, "rms_norm_eps": cfg.rms_norm_eps, "hidden_act": "silu",
            "max_position_embeddings": cfg.max_position_embeddings, "attention_bias": False,
            "mlp_bias": False, "rope_parameters": {"rope_type": "default",
                                                   "rope_theta": cfg.rope.theta},
        },
        "spec_debug_synthetic": {"verifier_layers": verifier_layers},
    }
    (directory / "config.json").write_text(json.dumps(config, indent=2))


# ------------------------------------------------------------------------------------------
# Dumps and the whole world
# ------------------------------------------------------------------------------------------
def write_dump(target: TinyTarget, sequences: Tensor, directory: Path,
               layer_ids: Sequence[int], *, dtype: torch.dtype = torch.float32) -> Path:
    """One hs_{i}.safetensors per sequence; slots = the states named by `layer_ids`."""
    directory.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        for i, ids in enumerate(sequences):
            _, states = target(ids[None])
            hidden = torch.stack([states[j][0] for j in layer_ids], dim=1)  # [T, S, H]
            write_hs_sample(directory / f"hs_{i}.safetensors", ids.clone(), hidden.to(dtype),
                            layer_ids=layer_ids)
    return directory


@dataclass(frozen=True)
class WorldPaths:
    root: Path
    target: Path
    draft: Path
    data: Path  # normal dump: aux slots then the final layer
    wide_data: Path | None  # every state 0..N
    embed_data: Path | None  # slots (0 = embedding output, aux...) then the final layer
    aux_layer_ids: tuple[int, ...]
    num_target_layers: int
    notes: dict = field(default_factory=dict)


def build_world(out_dir: str | Path, *, seed: int = 0, vocab: int = 256, hidden: int = 32,
                num_target_layers: int = 8, aux_layers: Sequence[int] | None = None,
                target_steps: int = 100, train_steps: int = 200, draft_vocab: int = 192,
                samples: int = 12, seq_len: int = 48, regimes: int = 4, wide: bool = True,
                embed_dump: bool = True, norm_flags: dict[str, bool] | None = None) -> WorldPaths:
    """Build (deterministically for a seed) the target, dumps and a trained draft.

    Runs on one torch thread: for models this small that is faster, and much faster when other
    processes share the cores."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _build_world(Path(out_dir), seed, vocab, hidden, num_target_layers, aux_layers,
                            target_steps, train_steps, draft_vocab, samples, seq_len, regimes,
                            wide, embed_dump, norm_flags)
    finally:
        torch.set_num_threads(threads)


def _build_world(root: Path, seed: int, vocab: int, hidden: int, num_target_layers: int,
                 aux_layers: Sequence[int] | None, target_steps: int, train_steps: int,
                 draft_vocab: int, samples: int, seq_len: int, regimes: int, wide: bool,
                 embed_dump: bool, norm_flags: dict[str, bool] | None) -> WorldPaths:
    root.mkdir(parents=True, exist_ok=True)
    N = num_target_layers
    aux = tuple(aux_layers) if aux_layers else (2, N // 2, N - 3)
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    language = Language.random(vocab, regimes, generator)

    target = TinyTarget(tiny_config(vocab=vocab, hidden=hidden, layers=N))
    target_loss = train_target(target, language, target_steps, generator)
    target.eval()
    target.save_hf(root / "target")

    counts = torch.bincount(language.sample(64, seq_len, generator).reshape(-1), minlength=vocab)
    d2t, t2d = vocab_map(counts, draft_vocab)
    flags = norm_flags or {}
    draft = Eagle3Draft(make_draft_config(target.cfg, aux, draft_vocab, **flags))
    with torch.no_grad():  # speculators: embed from the verifier, lm_head = verifier rows t2d
        draft.embed_tokens.weight.copy_(target.embed_tokens.weight)
        draft.lm_head.weight.copy_(target.lm_head.weight[t2d])
    draft.d2t, draft.t2d = d2t, t2d
    draft_loss = train_draft(draft, target, language, aux, train_steps, generator)
    draft.eval()
    save_speculators_draft(draft, root / "draft", verifier=str(root / "target"),
                           verifier_layers=N)

    sequences = language.sample(samples, seq_len, generator)
    data = write_dump(target, sequences, root / "data", list(aux) + [N])
    wide_dir = write_dump(target, sequences, root / "wide", list(range(N + 1))) if wide else None
    embed_dir = (write_dump(target, sequences, root / "embed", [0, *aux[1:], N])
                 if embed_dump else None)
    return WorldPaths(root, root / "target", root / "draft", data, wide_dir, embed_dir, aux, N,
                      {"target_loss": target_loss, "draft_loss": draft_loss})
