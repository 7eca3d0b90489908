"""Benchmark `drafter eval` against the reference library, and its memory while streaming.

    python bench/drafter_eval.py            # ~1 min on 2 CPU cores

1. Speed: a draft built and saved by speculators (eager attention, as EAGLE3.md section 8), the
   same hs-format samples; tokens/s of spec-debug's evaluation (which also reads each sample
   from disk) vs speculators' forward with its metrics (samples already in memory). Both
   compute logits for every TTT step plus full/cond accuracy. Prints the ratio (goal >= 1x).
2. Memory: peak RSS of a fresh process evaluating 200 vs 2,000 small samples (goal: flat).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402


def build_reference_draft(root: Path, hidden: int, vocab: int, draft_vocab: int, layers: int):
    from transformers import LlamaConfig, LlamaForCausalLM

    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig

    kw = dict(vocab_size=vocab, hidden_size=hidden, intermediate_size=hidden * 3,
              num_attention_heads=hidden // 64, num_key_value_heads=max(1, hidden // 256),
              head_dim=64, max_position_embeddings=4096)
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=layers, **kw)).save_pretrained(root / "target")
    layer_config = LlamaConfig(num_hidden_layers=1, **kw)
    layer_config._attn_implementation = "eager"
    aux = [2, layers // 2, layers - 3]
    config = Eagle3SpeculatorConfig(
        transformer_layer_config=layer_config, draft_vocab_size=draft_vocab,
        norm_before_residual=True, eagle_aux_hidden_state_layer_ids=aux,
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig.from_pretrained(str(root / "target"))))
    model = Eagle3DraftModel(config)
    selected = torch.sort(torch.randperm(vocab)[:draft_vocab]).values
    t2d = torch.zeros(vocab, dtype=torch.bool)
    t2d[selected] = True
    model.load_vocab_mappings(t2d, selected - torch.arange(draft_vocab))
    model.load_verifier_weights()
    model.eval()
    model.save_pretrained(root / "draft")
    return model, len(aux)


def write_samples(directory: Path, count: int, length: int, slots: int, hidden: int, vocab: int,
                  seed: int = 0) -> None:
    from spec_debug.eagle3.data import write_hs_sample

    directory.mkdir(parents=True, exist_ok=True)
    generator = torch.Generator().manual_seed(seed)
    for i in range(count):
        write_hs_sample(directory / f"hs_{i}.safetensors",
                        torch.randint(0, vocab, (length,), generator=generator),
                        torch.randn(length, slots, hidden, generator=generator))


def reference_tokens_per_s(model, data: Path, steps: int) -> tuple[float, list[float]]:
    from speculators.losses.utils import resolve_loss_config

    from spec_debug.eagle3.data import iter_samples

    samples = list(iter_samples(data))  # in memory: the reference is not charged for I/O
    loss_config = resolve_loss_config("kl_div", "eager")

    def run(sample):
        T = sample.length - 1
        return model(hidden_states=sample.slots[:-1, :-1].reshape(1, T, -1),
                     input_ids=sample.token_ids[1:][None],
                     document_ids=torch.zeros(1, T, dtype=torch.long),
                     loss_mask=sample.loss_mask[1:][None],
                     verifier_last_hidden_states=sample.final[1:][None],
                     ttt_steps=steps, loss_config=loss_config)

    with torch.no_grad():
        run(samples[0])  # warm-up
        started = time.perf_counter()
        sums: dict[str, float] = {}
        for sample in samples:
            _, _, metrics = run(sample)
            for key, value in metrics.items():
                sums[key] = sums.get(key, 0.0) + float(value)
        elapsed = time.perf_counter() - started
    tokens = sum(s.length - 1 for s in samples)
    full = [sums[f"full_acc_{k}_sum"] / max(sums[f"full_acc_{k}_total"], 1) for k in range(steps)]
    return tokens / elapsed, full


def speed(root: Path, args) -> None:
    from spec_debug.eagle3.api import evaluate_drafter

    model, num_aux = build_reference_draft(root, args.hidden, args.vocab, args.draft_vocab, 8)
    write_samples(root / "data", args.samples, args.seq_len, num_aux + 1, args.hidden, args.vocab)
    evaluate_drafter(root / "draft", root / "data", root / "target", steps=args.steps,
                     max_samples=1)  # warm-up
    ours = evaluate_drafter(root / "draft", root / "data", root / "target", steps=args.steps)
    ref_tps, ref_full = reference_tokens_per_s(model, root / "data", args.steps)
    same = all(abs(a - b) < 1e-6 for a, b in zip(ours["full_accuracy"], ref_full))
    print(f"speed: {args.samples} samples x {args.seq_len} tokens, H={args.hidden}, "
          f"V={args.vocab}, DV={args.draft_vocab}, K={args.steps} steps, fp32, CPU, "
          f"{torch.get_num_threads()} thread(s)")
    print(f"  spec-debug drafter eval : {ours['tokens_per_s']:9.0f} tok/s (includes reading "
          "each sample from disk)")
    print(f"  speculators forward     : {ref_tps:9.0f} tok/s (samples preloaded)")
    print(f"  ratio                   : {ours['tokens_per_s'] / ref_tps:9.2f}x   "
          f"(metrics identical: {same})")


_CHILD = """
import json, resource, sys, torch
torch.set_num_threads(1)
from spec_debug.eagle3.api import evaluate_drafter
r = evaluate_drafter(sys.argv[1], sys.argv[2], max_samples=int(sys.argv[3]), steps=3)
print(json.dumps({"samples": r["samples"],
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def memory(root: Path, args) -> None:
    from spec_debug.eagle3.model import Eagle3Draft
    from spec_debug.eagle3.synthetic import make_draft_config, save_speculators_draft, tiny_config

    target_cfg = tiny_config(vocab=512, hidden=64, layers=8)
    draft = Eagle3Draft(make_draft_config(target_cfg, (2, 4, 5), 512))
    save_speculators_draft(draft, root / "small_draft", verifier="none", verifier_layers=8)
    write_samples(root / "stream", args.stream, 64, 4, 64, 512)
    peaks = {}
    for count in (args.stream // 10, args.stream):
        out = subprocess.run([sys.executable, "-c", _CHILD, str(root / "small_draft"),
                              str(root / "stream"), str(count)],
                             capture_output=True, text=True, check=True)
        peaks[count] = json.loads(out.stdout.strip().splitlines()[-1])
    small, large = peaks[args.stream // 10], peaks[args.stream]
    print("memory: streaming small samples (64 tokens, 4 slots, H=64) in a fresh process")
    print(f"  {small['samples']:5d} samples: peak RSS {small['peak_rss_mb']:7.1f} MiB")
    print(f"  {large['samples']:5d} samples: peak RSS {large['peak_rss_mb']:7.1f} MiB   "
          f"(growth {large['peak_rss_mb'] - small['peak_rss_mb']:+.1f} MiB for "
          f"{large['samples'] - small['samples']} more samples)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--seq-len", type=int, default=512)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--vocab", type=int, default=8192)
    parser.add_argument("--draft-vocab", type=int, default=2048)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--stream", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        speed(root, args)
        if not args.skip_memory:
            memory(root, args)


if __name__ == "__main__":
    main()
