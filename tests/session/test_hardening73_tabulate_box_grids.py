"""Tables printed by python-tabulate's box-drawing grids "simple_grid", "rounded_grid" and
"heavy_grid" (``tabulate(rows, headers, tablefmt="rounded_grid")``: "├─┼─┤" or "┣━╋━┫" under the
header and between the rows). Before, none gave a reading. Now each row's throughput and accept
length are read, as from the ASCII "grid" table."""

import pytest

from spec_debug.session.metrics import extract_metrics

# tabulate 0.9.0
TABLES = {
    'simple_grid': '┌──────────────┬─────────────────────────────┬──────────────┐\n│   batch size │   output throughput (tok/s) │   acc length │\n├──────────────┼─────────────────────────────┼──────────────┤\n│            1 │                      183.42 │         3.21 │\n├──────────────┼─────────────────────────────┼──────────────┤\n│            8 │                      951.07 │         3.05 │\n└──────────────┴─────────────────────────────┴──────────────┘\n',
    'rounded_grid': '╭──────────────┬─────────────────────────────┬──────────────╮\n│   batch size │   output throughput (tok/s) │   acc length │\n├──────────────┼─────────────────────────────┼──────────────┤\n│            1 │                      183.42 │         3.21 │\n├──────────────┼─────────────────────────────┼──────────────┤\n│            8 │                      951.07 │         3.05 │\n╰──────────────┴─────────────────────────────┴──────────────╯\n',
    'heavy_grid': '┏━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┓\n┃   batch size ┃   output throughput (tok/s) ┃   acc length ┃\n┣━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━┫\n┃            1 ┃                      183.42 ┃         3.21 ┃\n┣━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━┫\n┃            8 ┃                      951.07 ┃         3.05 ┃\n┗━━━━━━━━━━━━━━┻━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┻━━━━━━━━━━━━━━┛\n',
}

EXPECTED = [("throughput", 183.42), ("accept_length", 3.21), ("throughput", 951.07), ("accept_length", 3.05)]


@pytest.mark.parametrize("fmt", sorted(TABLES))
def test_box_grid_rows_are_read(fmt):
    assert [(m.name, m.value) for m in extract_metrics(TABLES[fmt])] == EXPECTED
