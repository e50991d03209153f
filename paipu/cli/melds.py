"""The ``--meld TYPE:TILES[@FROM]`` notation of ``paipu score`` (an MCR declared set)."""

from __future__ import annotations

import re
from typing import Any

from paipu.cli.errors import CliError

__all__ = ["parse_meld"]


def parse_meld(text: str) -> Any:
    """``TYPE:TILES[@FROM]``: TYPE chow | pung | kong | ckong (concealed kong); TILES in any
    tile notation (a single tile for pung/kong); FROM the relative seat the claimed tile came
    from (1 previous, 2 opposite, 3 next; default 1)."""
    from eventlog import tiles as T
    from replayer.rules.mcr.situation import Meld

    try:
        kind, rest = text.split(":", 1)
    except ValueError:
        raise CliError(f"--meld {text!r}: expected TYPE:TILES[@FROM], e.g. chow:T3T4T5 or pung:J1@2") from None
    src = 1
    if "@" in rest:
        rest, s = rest.rsplit("@", 1)
        if s not in ("1", "2", "3"):
            raise CliError(f"--meld {text!r}: FROM must be 1, 2 or 3")
        src = int(s)
    kind = kind.strip().lower()
    compact = rest.replace(" ", "").replace(",", "")
    if re.fullmatch(r"(?:[WTBFJH][0-9])+", compact):  # T3T4T5 written without spaces
        rest = " ".join(compact[i : i + 2] for i in range(0, len(compact), 2))
    ts = T.parse(rest)
    if kind == "chow":
        if len(ts) != 3:
            raise CliError(f"--meld {text!r}: a chow has three tiles")
        return Meld("chow", tuple(T.sort_tiles(ts)), False, 1, ts[0])
    if kind in ("pung", "kong", "ckong"):
        n = 3 if kind == "pung" else 4
        if len(set(ts)) != 1 or len(ts) not in (1, n):
            raise CliError(f"--meld {text!r}: a {kind} is one tile given once or {n} times, got {len(ts)} tiles")
        t = ts[0]
        if kind == "ckong":
            return Meld("kong", (t,) * 4, True, None, None)
        return Meld(kind, (t,) * n, False, src, t)
    raise CliError(f"--meld {text!r}: TYPE must be chow, pung, kong or ckong")
