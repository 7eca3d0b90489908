"""Throughput of `drafter eval` at the real size, on a GPU, as a share of the bf16 matmul peak.

    python bench/drafter_gpu.py                 # H200: DeepSeek-V3/Kimi-K2-sized draft, bf16
    python bench/drafter_gpu.py --small         # the same code path, tiny, on CPU (CI)
    python bench/drafter_gpu.py --dry-run       # shapes and the FLOP count only

Real size (EAGLE3.md section 3, SpecForge configs/deepseek-v3-671b-eagle3.json): hidden 7168,
3 aux layers (fc 21504 -> 7168), 56 heads x 128, 8 KV heads, MLP 18432, one draft layer,
draft vocab 32000, target vocab 129280. A randomly initialised draft runs the full evaluation
(K TTT steps with teacher forcing, the accuracy chains, the target head's argmax over 129280
ids) on random hidden states that already sit on the GPU.

The FLOP count is analytic (executed matmul FLOPs, 2 per multiply-add: fc once per sample;
per step q/k/v/o, MLP, the T x T attention block as executed, lm_head on the T - k rows step k
scores; the target head once).
`--check-flops` compares it with torch.utils.flop_counter on the chosen size.
Peak: NVIDIA H200 SXM dense BF16 Tensor Core, 989 TFLOP/s (datasheet "1,979 TFLOPS" is with
2:4 sparsity; dense is half of it).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace

import torch

H200_BF16_DENSE_TFLOPS = 989.0


@dataclass(frozen=True)
class Size:
    hidden: int = 7168
    heads: int = 56
    kv_heads: int = 8
    head_dim: int = 128
    intermediate: int = 18432
    layers: int = 1
    num_aux: int = 3
    draft_vocab: int = 32000
    vocab: int = 129280


SMALL = Size(hidden=256, heads=4, kv_heads=2, head_dim=64, intermediate=512, draft_vocab=512,
             vocab=2048)


def draft_config(size: Size):
    from spec_debug.eagle3.synthetic import make_draft_config, tiny_config

    base = tiny_config(vocab=size.vocab, hidden=size.hidden, layers=size.layers,
                       heads=size.heads, kv_heads=size.kv_heads, intermediate=size.intermediate)
    base = replace(base, head_dim=size.head_dim, max_position_embeddings=8192)
    cfg = make_draft_config(base, tuple(range(size.num_aux)), size.draft_vocab)
    return replace(cfg, num_layers=size.layers, layer_types=("full_attention",) * size.layers)


def forward_flops(size: Size, tokens: int, steps: int, target_head: bool = True) -> int:
    """Executed matmul FLOPs to evaluate one sample of `tokens` rows for `steps` TTT steps."""
    H, T, d = size.hidden, tokens, size.head_dim
    q, kv = size.heads * d, size.kv_heads * d
    fc = 2 * T * size.num_aux * H * H
    first = 2 * T * 2 * H * (q + 2 * kv) + 2 * T * q * H  # q/k/v over 2H, o_proj
    later = 2 * T * H * (q + 2 * kv) + 2 * T * q * H
    mlp = 2 * T * 3 * H * size.intermediate
    attention = 2 * 2 * T * T * q  # QK^T and PV over the T x T block, all heads
    per_step = first + (size.layers - 1) * later + size.layers * (mlp + attention)
    # the draft head runs on the rows step k scores, T - k of them (evaluate._draft_argmax)
    lm_head = sum(2 * max(T - k, 0) * H * size.draft_vocab for k in range(steps))
    head = 2 * T * H * size.vocab if target_head else 0
    return fc + steps * per_step + lm_head + head


def build(size: Size, device: str, dtype: torch.dtype, seed: int = 0):
    from spec_debug.eagle3.loading import LoadedDraft, TargetHead
    from spec_debug.eagle3.model import Eagle3Draft

    cfg = draft_config(size)
    torch.manual_seed(seed)
    with torch.device("meta"):
        model = Eagle3Draft(cfg)
    model = model.to_empty(device=device).to(dtype)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if name.endswith("norm.weight") or ".q_norm." in name or ".k_norm." in name:
                param.fill_(1.0)
            else:
                param.normal_(0.0, 0.02)
    selected = torch.sort(torch.randperm(size.vocab, device=device)[: size.draft_vocab]).values
    model.t2d = torch.zeros(size.vocab, dtype=torch.bool, device=device)
    model.t2d[selected] = True
    model.d2t = selected - torch.arange(size.draft_vocab, device=device)
    model.eval()
    head = TargetHead(torch.ones(size.hidden, device=device, dtype=dtype),
                      torch.randn(size.vocab, size.hidden, device=device, dtype=dtype) * 0.02,
                      1e-6)
    return LoadedDraft(model=model, checkpoint=None, target=None, target_head=head,
                       embed_source="draft")


def aux_slots(size: Size) -> tuple[int, ...]:
    return tuple(range(size.num_aux))  # the last slot is the final layer, not an fc input


def samples(size: Size, count: int, tokens: int, device: str, dtype: torch.dtype):
    from spec_debug.eagle3.data import Sample

    generator = torch.Generator(device=device).manual_seed(1)
    out = []
    for i in range(count):
        T0 = tokens + 1  # shift_batch drops one row
        slots = torch.randn(T0, size.num_aux + 1, size.hidden, device=device, dtype=dtype,
                            generator=generator)
        ids = torch.randint(0, size.vocab, (T0,), device=device, generator=generator)
        out.append(Sample(f"s{i}", ids, slots, tuple(range(size.num_aux + 1)), slots[:, -1],
                          torch.ones(T0, dtype=torch.bool, device=device), None,
                          size.num_aux + 1))
    return out


def check_flops(size: Size, tokens: int, steps: int, device: str, dtype: torch.dtype) -> dict:
    """Analytic count vs torch's FLOP counter on one sample."""
    from torch.utils.flop_counter import FlopCounterMode

    from spec_debug.eagle3.evaluate import evaluate

    loaded = build(size, device, dtype)
    data = samples(size, 1, tokens, device, dtype)
    with FlopCounterMode(display=False) as counter:
        evaluate(loaded, data, steps=steps, device=device, layout_positions=aux_slots(size))
    return {"analytic": forward_flops(size, tokens, steps), "counted": counter.get_total_flops()}


def main() -> None:
    parser = argparse.ArgumentParser(description="drafter eval throughput at real size")
    parser.add_argument("--small", action="store_true", help="tiny size on CPU (CI smoke test)")
    parser.add_argument("--dry-run", action="store_true", help="print shapes and FLOPs only")
    parser.add_argument("--check-flops", action="store_true")
    parser.add_argument("--device", default=None)
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--tokens", type=int, default=None, help="rows per sample")
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    size = SMALL if args.small else Size()
    device = args.device or ("cpu" if args.small else "cuda")
    dtype = {"bfloat16": torch.bfloat16, "float16": torch.float16,
             "float32": torch.float32}[args.dtype]
    tokens = args.tokens or (128 if args.small else 2048)
    count = args.samples or (3 if args.small else 16)
    flops_per_sample = forward_flops(size, tokens, args.steps)
    plan = {"size": size.__dict__, "device": device, "dtype": args.dtype, "tokens": tokens,
            "samples": count, "steps": args.steps, "flops_per_sample": flops_per_sample,
            "peak_tflops": H200_BF16_DENSE_TFLOPS,
            "peak_source": "H200 SXM dense BF16 (datasheet 1,979 TFLOP/s is with sparsity)"}
    if args.dry_run:
        print(json.dumps(plan, indent=2))
        return
    if args.check_flops:
        plan["flop_check"] = check_flops(size, min(tokens, 256), args.steps, device, dtype)

    from spec_debug.eagle3.evaluate import evaluate

    loaded = build(size, device, dtype)
    data = samples(size, count, tokens, device, dtype)
    evaluate(loaded, data[:1], steps=args.steps, device=device,
             layout_positions=aux_slots(size))  # warm-up (kernels, allocator)
    if device.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats()
    result = evaluate(loaded, data, steps=args.steps, device=device,
                      layout_positions=aux_slots(size))
    achieved = flops_per_sample * count / result.elapsed_s / 1e12
    plan.update({
        "elapsed_s": result.elapsed_s, "tokens_per_s": result.tokens_per_s,
        "draft_tokens_per_s": result.tokens_per_s * args.steps,
        "achieved_tflops": achieved, "share_of_peak": achieved / H200_BF16_DENSE_TFLOPS,
        "full_accuracy": result.full_accuracy,
        "peak_gpu_memory_gib": (torch.cuda.max_memory_allocated() / 2**30
                                if device.startswith("cuda") else None),
    })
    if args.json:
        print(json.dumps(plan, indent=2))
        return
    print(f"draft H={size.hidden} aux={size.num_aux} DV={size.draft_vocab} V={size.vocab} "
          f"{args.dtype} on {device}: {count} samples x {tokens} tokens, K={args.steps}")
    print(f"  {result.tokens_per_s:,.0f} tokens/s ({result.tokens_per_s * args.steps:,.0f} "
          f"drafted positions/s), {achieved:.1f} TFLOP/s executed = "
          f"{100 * achieved / H200_BF16_DENSE_TFLOPS:.1f}% of {H200_BF16_DENSE_TFLOPS:.0f} "
          "TFLOP/s (H200 dense BF16)")
    if "flop_check" in plan:
        check = plan["flop_check"]
        print(f"  FLOP model check: analytic {check['analytic']:.3e} vs counted "
              f"{check['counted']:.3e}")


if __name__ == "__main__":
    main()
