"""The drafter tests run tiny models: one torch thread is faster than two, and it keeps them
fast when other test processes share the cores (two-thread torch under contention was 10x
slower in practice)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    try:
        import torch
    except ImportError:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    """The tiny synthetic world (target, dumps, trained draft), built once: ~10 s."""
    pytest.importorskip("torch")
    from spec_debug.eagle3.synthetic import build_world

    return build_world(tmp_path_factory.mktemp("world"), seed=0)
