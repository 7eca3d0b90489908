#!/usr/bin/env python3
"""Build the demo host's fixture (package data under spec_debug/data/demo). Deterministic.

    python scripts/build_demo_fixture.py            # ~2 minutes on 2 CPU cores

What it writes, and where every number comes from:
- target/: a tiny llama-style target (9 layers, hidden 32) trained on a synthetic language
  (spec_debug.eagle3.synthetic.build_world, seeded);
- draft/: an EAGLE-3 draft trained for it on cat([embedding output, layer 2, layer 4])
  (input-to-layer ids [0, 2, 4]) and saved in speculators format, then converted by hand to
  the format SGLang loads (no SGLang release reads a speculators config: SD711): a flat llama
  config (`architectures` ["LlamaForCausalLMEagle3"], `model_type` "llama", the keys of
  transformer_layer_config at the top level, `draft_vocab_size`, the proposal's 3 speculative
  tokens as `num_lookahead_tokens`) and the decoder layer's tensors renamed from `layers.0.*`
  to `midlayer.*`. The slip: the trained ids were copied to the top-level
  `eagle_aux_hidden_state_layer_ids`, where speculators keeps them, which SGLang does not read
  (it reads only `eagle_config.eagle_aux_hidden_state_layer_ids`, EAGLE3.md section 3), so
  SGLang serves its default [2, N//2, N-3] = [2, 4, 6]: the served layers differ from the
  trained ones;
- draft_fixed/: the same weights with the fix spec-debug itself proposes for SD201
  (spec_debug.diagnose.checks.layers.find_layer_fix): SGLang adds 1 to the ids it reads on a
  Llama target and captures the embedding output there only from 0.5.22, so the fixed host
  runs SGLang 0.5.22 with `eagle_config.eagle_aux_hidden_state_layer_ids = [-1, 1, 3]`;
- hidden_states/: the draft's training hidden states, a "wide" dump holding every state 0..9
  with `layer_ids` metadata (so the served layers can be measured too);
- launch_broken.txt / launch_fixed.txt: the recorded SGLang commands (num-steps 1 vs 3);
- server_broken.log / server_fixed.log: SGLang `Decode batch` lines. This is the one simulated
  part (there is no GPU server here): the accept length in each log is what the drafter really
  achieves when run the way that SGLang configuration runs it (spec_debug.eagle3 evaluation
  with SGLang semantics on the hidden states above), and tok/s follows the throughput model
  baseline * AL / (1 + K*c + overhead) with c estimated from the two configs;
- demo.json: the vars and the numbers above.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from spec_debug.diagnose.steps.throughput_step import draft_cost_from_configs  # noqa: E402
from spec_debug.diagnose.throughput import chain_accept_length  # noqa: E402

SEED = 0
NUM_TARGET_LAYERS = 9
TRAINED_AUX = (0, 2, 4)  # embedding output, layer 2, layer 4 (input-to-layer ids)
BASELINE_TOK_S = 90.0  # the incident's no-speculation baseline
# Per-round fixed cost (scheduling, sampling, kernel launches, the wider verify), in units of
# one target decode step. Large for a small target: SpecForge#339 measured an implied cost of
# about 0.5 target steps per draft step on Qwen3-30B-A3B at batch 1.
ROUND_OVERHEAD = 0.65
ENGINE_VERSION = "0.5.12"
LOG_LINES = 40
MAX_BYTES = 3_000_000

COMMAND = ("python3 -m sglang.launch_server --model-path {{DEMO}}/target --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path {{DEMO}}/{draft} --speculative-num-steps {steps} "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens {tokens} --tp 1 "
           "--mem-fraction-static 0.8 --cuda-graph-max-bs 8 --host 0.0.0.0 --port 30000")


def server_log(accept_length: float, steps: int, tok_s: float, rng: random.Random) -> str:
    """SGLang scheduler lines in the format of sgl-project/sglang#11948."""
    lines = []
    tokens = 160
    for i in range(LOG_LINES):
        minute, second = divmod(12 + i, 60)
        stamp = f"[2026-11-28 03:{14 + minute:02d}:{second:02d} TP0]"
        if i % 10 == 0:
            lines.append(f"{stamp} Prefill batch. #new-seq: 1, #new-token: {rng.randint(40, 400)}, "
                         f"#cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0, ")
        al = max(1.0, accept_length * (1 + rng.gauss(0, 0.04)))
        gen = 0.41 if i == 0 else tok_s * (al / accept_length) * (1 + rng.gauss(0, 0.03))
        tokens += int(al * 40)
        lines.append(f"{stamp} Decode batch. #running-req: 1, #token: {tokens}, token usage: 0.01, "
                     f"accept len: {al:.2f}, accept rate: {al / (steps + 1):.2f}, cuda graph: True, "
                     f"gen throughput (token/s): {gen:.2f}, #queue-req: 0, ")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "spec_debug" / "data" / "demo")
    parser.add_argument("--world", type=Path, default=None,
                        help="reuse a world already built by build_world with these settings (for iteration)")
    parser.add_argument("--reuse", action="store_true",
                        help="keep the trained target, draft and hidden states already in --out; rebuild "
                             "only the fixed draft config, the launch commands, the logs and demo.json")
    args = parser.parse_args()

    from spec_debug.diagnose.checks.layers import find_layer_fix, with_layer_ids
    from spec_debug.eagle3.api import evaluate_drafter
    from spec_debug.eagle3.synthetic import build_world

    out = args.out
    if not args.reuse:
        _train(args, out, build_world)
    draft_cfg = json.loads((out / "draft" / "config.json").read_text())
    target_cfg = json.loads((out / "target" / "config.json").read_text())
    fix = find_layer_fix("sglang", ENGINE_VERSION, draft_cfg, NUM_TARGET_LAYERS, list(TRAINED_AUX),
                         target_cfg["architectures"][0])
    assert fix is not None, "no SGLang release serves the trained layers"
    fixed_version = fix.min_version or ENGINE_VERSION
    fixed_cfg = with_layer_ids(draft_cfg, fix.key, fix.ids)
    if (out / "draft_fixed").exists():
        shutil.rmtree(out / "draft_fixed")
    (out / "draft_fixed").mkdir()
    shutil.copy(out / "draft" / "model.safetensors", out / "draft_fixed" / "model.safetensors")
    (out / "draft_fixed" / "config.json").write_text(json.dumps(fixed_cfg, indent=2) + "\n")

    data, target = out / "hidden_states", out / "target"
    reference = evaluate_drafter(out / "draft", data, target, steps=3)
    broken_view = evaluate_drafter(out / "draft", data, target, steps=1, semantics="sglang",
                                   engine_version=ENGINE_VERSION)
    fixed_view = evaluate_drafter(out / "draft_fixed", data, target, steps=3, semantics="sglang",
                                  engine_version=fixed_version)
    c = draft_cost_from_configs(draft_cfg, target_cfg)
    rng = random.Random(SEED)
    meta = {
        "about": "fixture of `spec-debug demo`, built by scripts/build_demo_fixture.py",
        "seed": SEED, "num_target_layers": NUM_TARGET_LAYERS, "trained_aux_layer_ids": list(TRAINED_AUX),
        "hidden_states": "hidden_states", "baseline_tok_s": BASELINE_TOK_S,
        "claimed_accuracy": round(reference["full_accuracy"][0], 3),
        "reference_eval": {k: reference[k] for k in ("full_accuracy", "target_conditional_acceptance",
                                                     "expected_accept_length", "layout_layer_ids")},
        "simulation": {"draft_cost_ratio": c, "round_overhead": ROUND_OVERHEAD,
                       "tok_s": "baseline * AL / (1 + K*c + overhead)"},
    }
    for variant, draft, steps, view, version in (("broken", "draft", 1, broken_view, ENGINE_VERSION),
                                                 ("healthy", "draft_fixed", 3, fixed_view, fixed_version)):
        al = chain_accept_length(view["target_conditional_acceptance"], steps=steps)
        tok_s = BASELINE_TOK_S * al / (1 + steps * c + ROUND_OVERHEAD)
        suffix = "broken" if variant == "broken" else "fixed"
        (out / f"launch_{suffix}.txt").write_text(COMMAND.format(draft=draft, steps=steps, tokens=steps + 1) + "\n")
        (out / f"server_{suffix}.log").write_text(server_log(al, steps, tok_s, rng))
        meta[variant] = {"cmdline": f"launch_{suffix}.txt", "server_log": f"server_{suffix}.log",
                         "engine_version": version, "served_layer_ids": view["layout_layer_ids"],
                         "accept_length": round(al, 4), "tok_s": round(tok_s, 2)}
    (out / "demo.json").write_text(json.dumps(meta, indent=2) + "\n")
    (out / "README.md").write_text("# The demo host's fixture\n\nBuilt by `scripts/build_demo_fixture.py`; "
                                   "do not edit by hand.\n\n```\n" + (__doc__ or "").strip() + "\n```\n")
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(json.dumps({k: meta[k] for k in ("claimed_accuracy", "broken", "healthy", "simulation")}, indent=2))
    print(f"wrote {out} ({total / 1e6:.2f} MB)")
    if total > MAX_BYTES:
        print(f"fixture too large: {total} bytes > {MAX_BYTES}", file=sys.stderr)
        return 1
    return 0


def _train(args, out: Path, build_world) -> None:
    """Train the target and the draft (the slow part) and copy them, with the data, into `out`."""
    with tempfile.TemporaryDirectory() as tmp:
        if args.world is not None:
            root = args.world
            world = type("World", (), {"target": root / "target", "draft": root / "draft", "wide_data": root / "wide"})
        else:
            world = build_world(Path(tmp) / "world", seed=SEED, aux_layers=TRAINED_AUX,
                                num_target_layers=NUM_TARGET_LAYERS, samples=8, wide=True, embed_dump=False)
        out = args.out
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        shutil.copytree(world.target, out / "target")
        shutil.copytree(world.wide_data, out / "hidden_states")
        draft_cfg = json.loads((world.draft / "config.json").read_text())
        (out / "draft").mkdir()
        write_sglang_draft(draft_cfg, world.draft / "model.safetensors", out / "draft")


def sglang_config(speculators_cfg: dict) -> dict:
    """The draft's speculators config converted by hand into the flat llama config SGLang loads
    (python/sglang/srt/models/llama_eagle3.py LlamaForCausalLMEagle3, built from a transformers
    LlamaConfig: SGLang reads no speculators config), with the slip of the incident: the trained
    aux ids are copied to the top-level `eagle_aux_hidden_state_layer_ids`, where speculators
    keeps them, and not to `eagle_config.eagle_aux_hidden_state_layer_ids`, the key SGLang reads."""
    layer = dict(speculators_cfg["transformer_layer_config"])
    rope = layer.pop("rope_parameters", None) or {}
    cfg = {"architectures": ["LlamaForCausalLMEagle3"], **layer, "model_type": "llama",
           "rope_theta": rope.get("rope_theta", 10000.0), "rope_scaling": None,
           "draft_vocab_size": speculators_cfg["draft_vocab_size"],
           # vLLM's own reading of a speculators config (transformers_utils/configs/speculators/
           # algos.py update_eagle3): the proposal's speculative_tokens become num_lookahead_tokens
           "num_lookahead_tokens": speculators_cfg["speculators_config"]["proposal_methods"][0]["speculative_tokens"],
           "eagle_aux_hidden_state_layer_ids": list(speculators_cfg["eagle_aux_hidden_state_layer_ids"]),
           "tie_word_embeddings": False, "torch_dtype": "float32"}
    if "spec_debug_synthetic" in speculators_cfg:
        cfg["spec_debug_synthetic"] = speculators_cfg["spec_debug_synthetic"]
    return cfg


def write_sglang_draft(speculators_cfg: dict, weights: Path, out: Path) -> None:
    """The draft as SGLang loads it: sglang_config, and the decoder layer's tensors renamed from
    speculators' `layers.0.*` to `midlayer.*` (LlamaForCausalLMEagle3 holds its one layer there)."""
    from safetensors.torch import load_file, save_file

    tensors = {("midlayer." + name[len("layers.0."):] if name.startswith("layers.0.") else name): t
               for name, t in load_file(str(weights)).items()}
    save_file(dict(sorted(tensors.items())), str(out / "model.safetensors"), metadata={"format": "pt"})
    (out / "config.json").write_text(json.dumps(sglang_config(speculators_cfg), indent=2) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
