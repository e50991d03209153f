"""The "listening" line of ``paipu serve`` lists every service the server serves — the
names it registers with health and reflection, TournamentService included."""

from __future__ import annotations

import threading

from analytics.tournament_service import register
from services.server import serve


def test_listening_line_lists_every_served_service(tmp_path, capsys):
    ready, stop = threading.Event(), threading.Event()
    t = threading.Thread(target=serve, args=(tmp_path,), kwargs=dict(
        port=0, create=True, ready=ready, stop=stop, extra_services=(register(tmp_path),)))
    t.start()
    try:
        assert ready.wait(30)
    finally:
        stop.set()
        t.join(30)
    line = next(x for x in capsys.readouterr().err.splitlines() if "listening on" in x)
    for name in ("paipu.v1.EventLogService", "paipu.v1.IngestService", "paipu.v1.ReplayService",
                 "paipu.v1.TournamentService", "grpc.health.v1.Health", "ServerReflection"):
        assert name in line, line
