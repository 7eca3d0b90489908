"""analyze: after a failure, reading the reference source on GitHub with WebFetch is a change of approach.

The drafter comparison crashes with a shape error and the agent fetches speculators' eagle3.py
from GitHub to see how the fc layer is fed, as it would Read a local copy. Before, a WebFetch
call had no path and was of kind "other" (like an edit, never a pivot): the session showed no
change of approach, while the Read of the same file did.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SHAPES = ("Traceback (most recent call last):\n"
          "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x12288 and 4096x4096)")
SOURCE = "https://github.com/vllm-project/speculators/blob/main/src/speculators/models/eagle3.py#L120"


def _pivots(tmp_path, url: str):
    w = _Writer("46460000-0000-4000-8000-0000000000d4", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("The drafter's output diverges from speculators on gpu01.")
    w.bash("ssh gpu01 'python compare_draft.py --ckpt /models/e3'", SHAPES, exit_code=1)
    w.tool("WebFetch", {"url": url, "prompt": "How is the fc layer fed?"}, "fc(torch.cat([low, mid, high], dim=-1))")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path).pivots


def test_fetching_the_reference_source_is_a_pivot_to_reading_source(tmp_path):
    [pivot] = _pivots(tmp_path, SOURCE)
    assert (pivot.seq, pivot.trigger_seq, pivot.from_category, pivot.to_category) == (3, 2, "python", "read_source")
    assert pivot.summary.endswith(f"moved from running python to reading source code: WebFetch {SOURCE}")


def test_fetching_a_docs_page_stays_no_pivot(tmp_path):
    assert _pivots(tmp_path, "https://docs.sglang.ai/advanced_features/speculative_decoding.html") == []
