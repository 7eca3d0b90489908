"""A long sample's step-0 attention mask is built a query block at a time.

The forward held the whole [T, T] boolean mask of every attention window (and three more of
that size while building it): 10 GB for a 100k-token sample, which the acceptance eval ran
out of memory on. The numbers are checked against speculators elsewhere
(test_hardening6_numerics' query-block cases, test_equivalence's documents); here: the
memory, and that the blocks are the mask speculators' mask_mods describe.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

from spec_debug.eagle3.model import StepZeroMask  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MEMORY_SCRIPT = """
import resource, sys, torch
from dataclasses import replace
from spec_debug.eagle3 import model as draft_model
from spec_debug.eagle3.synthetic import tiny_config
draft_model.SCORES_BUDGET = 1 << 20  # 4 MiB of fp32 scores per query block
T = 12000
cfg = replace(tiny_config(vocab=64, hidden=32, layers=2, heads=4, kv_heads=2,
                          sliding_window=3000, layer_types=("sliding_attention", "full_attention")),
              head_dim=8)
model = draft_model.Eagle3Draft(cfg).eval()
aux, ids = torch.randn(1, T, 3 * 32), torch.randint(0, 64, (1, T))
docs = (torch.arange(T) >= T // 2).long()[None]  # two packed documents
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with torch.no_grad():
    model(aux, ids, 2, document_ids=docs)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""


def test_long_sample_never_holds_a_full_mask():
    """12k tokens, a sliding and a full layer, two documents: the two [T, T] masks are 137 MiB
    each, and building one held four of that size (peak ~600 MiB above the start). Blocked:
    the masks of one block of rows at a time, a few MiB. glibc's mmap threshold is pinned so
    that freed blocks are returned, and the peak is what was live."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", PYTHONPATH=ROOT)
    # The limit only guards against a hang: this test is about memory. The forward takes ~3 min
    # on 2 busy cores (186 s beside other test runs) and ran past 300 s once under load.
    done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True,
                          timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) < 100


def _mask_mods_mask(T: int, window: int | None, docs: list[int]) -> torch.Tensor:
    """speculators' step-0 rule, one (q, kv) pair at a time: causal and same document
    (create_combined_mask_mod), inside the window, or the diagonal (diagonal_draft_mask_mod)."""
    out = torch.zeros(T, T, dtype=torch.bool)
    for q in range(T):
        for kv in range(T):
            causal = kv <= q and (window is None or kv > q - window)
            same_doc = docs[q] == docs[kv] and docs[q] != -1
            out[q, kv] = (causal and same_doc) or q == kv
    return out


@pytest.mark.parametrize("window", [None, 3])
def test_blocks_are_the_rows_of_the_reference_mask(window):
    docs = [0, 0, 0, 1, 1, 1, 1, -1, -1]
    T = len(docs)
    mask = StepZeroMask.of(T, torch.device("cpu"), window, torch.tensor([docs]))
    expected = _mask_mods_mask(T, window, docs)
    assert torch.equal(mask.dense(), expected)
    for rows in (slice(0, 4), slice(4, 7), slice(7, 9)):
        assert torch.equal(mask.block(rows), expected[rows, :rows.stop])


EVAL_SCRIPT = """
import resource, torch
from dataclasses import replace
from spec_debug.eagle3 import evaluate as ev, model as draft_model
from spec_debug.eagle3.data import Sample
from spec_debug.eagle3.loading import LoadedDraft
from spec_debug.eagle3.synthetic import tiny_config
torch.manual_seed(0)
torch.set_num_threads(1)  # the same split of each sum from run to run: a near tie stays one way
T, V = 8000, 8192
cfg = replace(tiny_config(vocab=V, hidden=32, layers=1, heads=4, kv_heads=2), head_dim=8,
              max_position_embeddings=T + 8)
model = draft_model.Eagle3Draft(cfg).eval()
ids = torch.randint(0, V, (T,))
sample = Sample(name="long", token_ids=ids, slots=torch.randn(T, 3, 32), slot_index=(0, 1, 2),
                final=None, loss_mask=torch.ones(T, dtype=torch.bool), layer_ids=(1, 2, 3),
                num_file_slots=3)
loaded = LoadedDraft(model=model, checkpoint=None, target=None, target_head=None,
                     embed_source="draft")
small, large = 1 << 20, 1 << 40
draft_model.SCORES_BUDGET = ev.DRAFT_LOGITS_BUDGET = small
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
chunked = ev.evaluate(loaded, [sample], steps=3).counts
peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024
draft_model.SCORES_BUDGET = ev.DRAFT_LOGITS_BUDGET = large
whole = ev.evaluate(loaded, [sample], steps=3).counts
print(peak, chunked == whole)
"""


def test_eval_of_a_long_sample_applies_the_draft_head_a_few_rows_at_a_time():
    """8000 tokens of an 8192-vocab draft: the forward yielded [T, DV] logits per step (250 MiB
    here; 12 GiB in fp32 for 100k tokens of a 32k-vocab draft), and eval took their argmax.
    Eval now applies the head to a budget of rows at a time: the same counts as all rows at
    once, without the whole logits."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-c", EVAL_SCRIPT], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    peak, same = done.stdout.split()
    assert same == "True"  # the chunks are scored like the whole
    assert int(peak) < 100


MLP_SCRIPT = """
import resource, torch
from dataclasses import replace
from spec_debug.eagle3 import model as draft_model
from spec_debug.eagle3.synthetic import tiny_config
torch.manual_seed(0)
torch.set_num_threads(1)  # the same split of each sum from run to run
T = 6000
cfg = replace(tiny_config(vocab=64, hidden=32, layers=1, heads=4, kv_heads=2, intermediate=4096),
              head_dim=8)
model = draft_model.Eagle3Draft(cfg).eval()
aux, ids = torch.randn(1, T, 3 * 32), torch.randint(0, 64, (1, T))
draft_model.SCORES_BUDGET = draft_model.MLP_BUDGET = 1 << 20
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with torch.no_grad():
    chunked = model(aux, ids, 2)
peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024
draft_model.SCORES_BUDGET = draft_model.MLP_BUDGET = 1 << 40
with torch.no_grad():
    whole = model(aux, ids, 2)
# relative to the logits' size: the chunks' matmuls are blocked differently from the whole's, so
# fp32 sums in another order (4e-5 absolute was seen on logits of size ~1-10; a wrong chunk is O(1))
print(peak, max(float((a - b).abs().max() / b.abs().max()) for a, b in zip(chunked, whole)))
"""


def test_a_long_sample_goes_through_the_mlp_a_budget_of_rows_at_a_time():
    """6000 tokens through a 4096-wide MLP: gate, up, their activation and product were each
    [T, I] (94 MiB here, 5.7 GB fp32 for 100k tokens of a 14336-wide draft). Now in chunks of
    rows, with the same logits (the MLP is row-wise)."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-c", MLP_SCRIPT], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    peak, diff = done.stdout.split()
    # relative: fp32 rounding of sums taken in another order (1.5e-5 seen when the threads split
    # a sum differently from run to run; one thread makes it 2e-7); a chunk read wrong is O(1)
    assert float(diff) < 1e-4
    assert int(peak) < 100
