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
        return DeclaredMeld("chow", tuple(T.sort_tiles(ts)), 0, ts[0], (seat - 1) % 4)
    if kind in ("pung", "kong", "ckong"):
        n = 3 if kind == "pung" else 4
        if len(set(ts)) != 1 or len(ts) not in (1, n):
            raise CliError(f"--meld {text!r}: a {kind} is one tile given once or {n} times, got {len(ts)} tiles")
        t = ts[0]
        if kind == "ckong":
            return DeclaredMeld("kong", (t,) * 4, 0, kong_kind="concealed")
        return DeclaredMeld(kind, (t,) * n, 0, t, (seat - src) % 4, kong_kind="melded" if kind == "kong" else None)
    raise CliError(f"--meld {text!r}: TYPE must be chow, pung, kong or ckong")
