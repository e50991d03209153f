"""The bundled real game logs (paipu/samples) and how the analytics tests load them."""

from __future__ import annotations

from pathlib import Path

from eventlog.ingest import ImportedGame, parse_file
from eventlog.store.base import NO_STREAM

SAMPLES = Path(__file__).resolve().parents[2] / "paipu" / "samples"
BOTZONE_TEXT = SAMPLES / "botzone-mcr-human-sample" / "sample_16_games.txt"
BOTZONE_JSON_DIR = SAMPLES / "botzone-mcr-matchlog-json"
PMN = SAMPLES / "pmn-python-majiang" / "mahjongsoft_duplicate_mcr_session74621_game1_table3.pmn"


def sample_files() -> list[Path]:
    """Every bundled real log file, in a fixed order."""
    files = [BOTZONE_TEXT]
    files += sorted(p for p in BOTZONE_JSON_DIR.iterdir() if p.suffix in (".json", ".log"))
    files.append(PMN)
    return files


def imported_games(files: list[Path]) -> list[ImportedGame]:
    games = []
    for f in files:
        for item in parse_file(f):
            assert isinstance(item, ImportedGame), str(item)
            games.append(item)
    return games


def fill(store, games: list[ImportedGame]) -> None:
    for g in games:
        store.append(g.game_id, g.events, NO_STREAM)
