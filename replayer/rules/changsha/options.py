"""Changsha options (docs/reference/rules/changsha.md §6, §8), stored with the game.

Every field is one row of the spec's option table (§6) or one reading the spec leaves open
(§8.17, named here as options); the defaults are the spec's. Each field's description names
its rule source, so listings (``paipu rulesets``) can show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from eventlog.errors import validation_problem
from replayer.findings import RulesetError

__all__ = ["DEFAULT_OPTIONS", "OPTION_SOURCES", "ChangshaOptions", "KongPay", "parse_options"]


class KongPay(BaseModel):
    """Kong money (杠钱, §4 "Kong payments", §8.14): points each of the three other players
    pays at once for a kong — ``ming`` for a melded (直杠) or added (加杠) kong, ``an`` for a
    concealed kong (暗杠). Points, not multiples of ``unit``; never doubled by birds; kept on
    an exhaustive draw and when another player wins. 0 = no kong money (default)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ming: int = Field(0, ge=0, description="points per payer for a melded or added kong (明杠)")
    an: int = Field(0, ge=0, description="points per payer for a concealed kong (暗杠)")


class ChangshaOptions(BaseModel):
    """Changsha options (changsha.md §6; the open readings of §8.17 as named options).

    Amounts are in points; ``unit`` is X, the value of one small unit (a big unit is 6X)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unit: int = Field(10, ge=1, description="X: points of one small unit; a big unit is 6X, the dealer surcharge 1X (§5, §6)")
    birds: Literal[1, 2, 4, 6] = Field(1, description="bird tiles (扎鸟) turned after a win (§5.1, §6)")
    bird_origin: Literal["dealer", "winner"] = Field(
        "dealer", description="a bird of rank r hits origin + (r-1) mod 4; origin the dealer or the winner (§5.1)")
    bird_mode: Literal["add", "multiply"] = Field(
        "add", description="several hits on one payer: amount x (1 + hits) or x 2^hits (§5.1)")
    bird_excludes_dealer_bonus: bool = Field(
        False, description="the 1X dealer surcharge is added after the bird doubling (§5.1)")
    opening_bird: Literal["none", "dice"] = Field(
        "none", description="opening small wins have no bird, or the dealer's dice sum serves as one (§5.1, §8.11)")
    kong_pay: KongPay = Field(default_factory=KongPay, description="kong money per payer in points (§4, §8.14)")
    haohua_units: Literal[1, 2] = Field(1, description="big units of 豪华七小对 (§3.3 #9, §6, §8.6)")
    extra_opening_wins: tuple[str, ...] = Field(
        (), description="extra opening small wins (节节高, 三同 ...): refused until specified (§6, §8.15)")
    haidi_passer_may_win: bool = Field(
        True, description="a player who passed the 海底 may win on it once exposed (海底炮) (§4, §8.17; spec silent)")
    hands_per_game: int | None = Field(
        None, ge=1, le=64,
        description="hands in a game; null (default): no fixed number, the log's game_ended ends it (spec silent) (§2)")
    kaigang_reveal_earthly: bool = Field(
        False, description="a tile revealed by the dealer's 开杠 before his first discard counts as the first discard for 地胡 (§3.3 #2, §8.17; spec silent)")

    @field_validator("extra_opening_wins")
    @classmethod
    def _no_extra_wins(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if v:
            raise ValueError(
                f"{list(v)} are not defined by the rules (changsha.md §8.15): extra opening wins are refused")
        return v


#: The rule source of every option (shown in listings and errors).
OPTION_SOURCES: dict[str, str] = {
    "unit": "docs/reference/rules/changsha.md §5, §6",
    "birds": "docs/reference/rules/changsha.md §5.1, §6",
    "bird_origin": "docs/reference/rules/changsha.md §5.1, §6",
    "bird_mode": "docs/reference/rules/changsha.md §5.1, §6",
    "bird_excludes_dealer_bonus": "docs/reference/rules/changsha.md §5.1, §6",
    "opening_bird": "docs/reference/rules/changsha.md §5.1, §6, §8.11",
    "kong_pay": "docs/reference/rules/changsha.md §4, §6, §8.14",
    "haohua_units": "docs/reference/rules/changsha.md §3.3, §6, §8.6",
    "extra_opening_wins": "docs/reference/rules/changsha.md §6, §8.15",
    "haidi_passer_may_win": "docs/reference/rules/changsha.md §4, §8.17",
    "kaigang_reveal_earthly": "docs/reference/rules/changsha.md §3.3, §8.17",
    "hands_per_game": "docs/reference/rules/changsha.md §2 (dealer rotation; the spec is silent on the length of a game)",
}

DEFAULT_OPTIONS = ChangshaOptions()


def parse_options(raw: Mapping[str, Any] | None) -> ChangshaOptions:
    """Options from game_started ``ruleset_options`` (or a vector's ``options``): unknown
    names and wrong types are refused. Raises :class:`RulesetError` naming the option and its
    rule source."""
    try:
        return ChangshaOptions.model_validate(dict(raw or {}))
    except ValidationError as e:
        err = e.errors()[0]
        loc, why = validation_problem(e, unknown="no such option")
        src = OPTION_SOURCES.get(str(err["loc"][0]) if err["loc"] else "", "docs/reference/rules/changsha.md §6")
        raise RulesetError(f"changsha option {loc or 'options'}: {why} ({src})") from None
