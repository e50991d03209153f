"""The ``--meld TYPE:TILES[@FROM]`` notation of ``paipu score``: a declared set of the scored
hand, as the replayer's ruleset-neutral :class:`~replayer.state.DeclaredMeld`."""

from __future__ import annotations

import re
from paipu.cli.errors import CliError
from replayer.state import DeclaredMeld

__all__ = ["parse_meld"]


def parse_meld(text: str, seat: int = 0) -> DeclaredMeld:
    """``TYPE:TILES[@FROM]``: TYPE chow | pung | kong | ckong (concealed kong); TILES in any
    tile notation (a single tile for pung/kong); FROM the relative seat the claimed tile came
    from (1 previous, 2 opposite, 3 next; default 1), turned into an absolute seat for a hand
    held by ``seat``."""
    from eventlog import tiles as T

    try:
        kind, rest = text.split(":", 1)
    except ValueError:
        raise CliError(f"--meld {text!r}: expected TYPE:TILES[@FROM], e.g. chow:T3T4T5 or pung:J1@2") from None
    src = 1
    given: int | None = None
    if "@" in rest:
        rest, s = rest.rsplit("@", 1)
        if s not in ("1", "2", "3"):
            raise CliError(f"--meld {text!r}: FROM must be 1, 2 or 3")
        src = given = int(s)
    kind = kind.strip().lower()
    compact = rest.replace(" ", "").replace(",", "")
    if re.fullmatch(r"(?:[WTBFJH][0-9])+", compact):  # T3T4T5 written without spaces
        rest = " ".join(compact[i : i + 2] for i in range(0, len(compact), 2))
    ts = T.parse(rest)
    if kind == "chow":
        if len(ts) != 3:
            raise CliError(f"--meld {text!r}: a chow has three tiles")
        run = T.sort_tiles(ts)
        if any(t[0] not in "WTB" for t in run):
            raise CliError(f"--meld {text!r}: a chow is three suited tiles in a row; "
                           f"{', '.join(t for t in run if t[0] not in 'WTB')} cannot be chowed")
        if len({t[0] for t in run}) != 1 or [int(t[1]) for t in run] != list(range(int(run[0][1]), int(run[0][1]) + 3)):
            raise CliError(f"--meld {text!r}: a chow is three tiles of one suit in a row, got {' '.join(run)}")
        if given not in (None, 1):
            raise CliError(f"--meld {text!r}: a chow is only claimed from the previous player "
                           f"(@1, 上家), not @{given} (docs/reference/rules/competition.md §A3: chi only by the 下家 from the 上家's discard)")
        return DeclaredMeld("chow", tuple(run), 0, ts[0], (seat - 1) % 4)
    if kind in ("pung", "kong", "ckong"):
        n = 3 if kind == "pung" else 4
        if len(set(ts)) != 1 or len(ts) not in (1, n):
            raise CliError(f"--meld {text!r}: a {kind} is one tile given once or {n} times, got {len(ts)} tiles")
        t = ts[0]
        if kind == "ckong":
            if given is not None:
                raise CliError(f"--meld {text!r}: a concealed kong claims no tile: drop @{given}")
            return DeclaredMeld("kong", (t,) * 4, 0, kong_kind="concealed")
        if kind == "kong" and given is None:
            raise CliError(f"--meld {text!r}: a melded kong claims a discard (or was added to a "
                           "claimed pung): say from whom with @FROM (1 previous, 2 opposite, 3 next), "
                           "or write ckong:TILE for a concealed kong")
        if kind == "kong":
            return DeclaredMeld("kong", (t,) * n, 0, t, (seat - src) % 4, kong_kind="melded")
        return DeclaredMeld("pung", (t,) * n, 0, t, (seat - src) % 4)
    raise CliError(f"--meld {text!r}: TYPE must be chow, pung, kong or ckong")
