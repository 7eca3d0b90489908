"""Round 30 review of the 2 MiB playbook bound (9e4c11b1). Its size was shown to one decimal so
that "a 2.5 MiB file" no longer read as "a 2 MiB file ... (the limit is 2 MiB)", but a file just
past the bound still read so: 2,097,188 bytes was "a 2.0 MiB file is not a playbook (the limit
is 2 MiB)". Where one decimal does not tell it from the limit, the size is said in bytes."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import MAX_PLAYBOOK_BYTES, load_playbook


@pytest.mark.parametrize("over, said", [
    (36, "a 2,097,188-byte file is not a playbook (the limit is 2 MiB, 2,097,152 bytes)"),
    (MAX_PLAYBOOK_BYTES // 8, "a 2.2 MiB file is not a playbook (the limit is 2 MiB)"),
])
def test_a_file_just_past_the_bound_is_not_said_as_the_bound(tmp_path, over, said):
    path = tmp_path / "pasted.yaml"
    path.write_bytes(b"name: t\nsteps:\n  - id: a\n    run: |\n" + b"      x\n" * ((MAX_PLAYBOOK_BYTES + over - 36) // 8) + b"x" * ((over - 36) % 8))
    assert path.stat().st_size == MAX_PLAYBOOK_BYTES + over
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert str(caught.value).splitlines()[0] == f"{path}:1:1: {said}"
