"""Issue 19 (memory flat in the number of games): the per-game batch work spread over
processes (eventlog/parallel.py) keeps a bounded window of chunks in flight, however slowly
the caller takes the results, and gives them back in order."""

from __future__ import annotations

from eventlog.parallel import _chunks, _in_order


def test_results_come_in_order_with_a_bounded_window_in_flight():
    ids = [f"g{i:03d}" for i in range(100)]
    in_flight: list[list[str]] = []
    most = 0

    def submit(part: list[str]):
        nonlocal most
        in_flight.append(part)
        most = max(most, len(in_flight))

        def result() -> list[str]:
            in_flight.remove(part)
            return [g.upper() for g in part]

        return result

    taken = []
    for r in _in_order(submit, _chunks(ids, 7), 3):  # the caller takes one result at a time
        taken.append(r)
        assert len(in_flight) <= 3
    assert taken == [g.upper() for g in ids]
    assert most == 3 and not in_flight
