"""The table state a replay produces after each event (shared/DESIGN.md §6).

Everything here is a frozen dataclass holding tuples, so a state is immutable, hashable
in its parts, compares by value (two replays of the same events give ``==`` states) and
is updated copy-on-write with :func:`replace` (a faster :func:`dataclasses.replace`;
unchanged seats are shared).
:func:`to_dict` gives the JSON form (``paipu replay``).

Seats are absolute (0..3 in turn order, DESIGN.md §3); the next seat to act after seat
``s`` is :func:`eventlog.seats.next_seat` — its 下家, skipping seats that have left the hand
(``TableState.in_hand``: 血战到底 winners).

Phases of a hand (``TableState.phase``)::

    pregame ─game_started─▶ idle ─hand_started─▶ dealing ─dealer acts─▶ discard
    discard ─tile_discarded─▶ claims ─next seat draws─▶ discard
                               claims ─chow/pung─▶ discard (claimant)
    discard/claims ─kong─▶ replacement (concealed/melded) | robbing (added) ─draw─▶ discard
    claims/discard/robbing ─win_declared─▶ hand_over ─hand_ended─▶ idle ─game_ended─▶ game_over
    claims/discard/robbing ─win_declared, the hand goes on (PlayRules.hand_end)─▶ claims
        (the winner is out; the seat after the last winner draws next)
    claims ─exhaustive_draw─▶ hand_over

``turn`` is the seat expected to act next: the drawer in ``claims`` (the discarder's
下家), the discarder in ``discard``, the konger in ``replacement``/``robbing``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any, Literal

from eventlog import seats as _seats
from eventlog import tiles as _tiles
from replayer.explained import ExplainedScore

Phase = Literal[
    "pregame", "idle", "dealing", "discard", "claims", "replacement", "robbing",
    "hand_over", "game_over",
]
MeldKind = Literal["chow", "pung", "kong"]
KongKind = Literal["concealed", "melded", "added"]
DrawSource = Literal["wall", "kong_replacement", "flower_replacement"]

EMPTY_COUNTS: tuple[int, ...] = (0,) * 34

#: Field metadata: :func:`to_dict` leaves the field out while it holds its default (a
#: status most states never have: the JSON of a state without it is what it was before).
_OMIT_DEFAULT = {"omit_default": True}

_new = object.__new__
_setattr = object.__setattr__
_FIELD_NAMES: dict[type, frozenset[str] | None] = {}


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the frozen dataclass ``obj`` with ``changes`` applied, like
    :func:`dataclasses.replace` and equal to what it gives, without re-running ``__init__``:
    the copy gets a copy of the old instance dict updated with ``changes`` (the fields are already
    valid, and the frozen classes here have no ``__post_init__`` but :class:`Settlement`,
    which keeps going through :func:`dataclasses.replace`). ``obj`` is never modified (a
    :class:`WorkingState` gives a frozen :class:`TableState` of what it holds now).
    Raises TypeError for a name that is not a field."""
    cls = obj.__class__
    if cls is WorkingState:
        obj.settle()
        cls = TableState
    try:
        names = _FIELD_NAMES[cls]
    except KeyError:
        names = _field_names(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - names)}")
    d = obj.__dict__.copy()
    d.update(changes)
    new = _new(cls)
    _setattr(new, "__dict__", d)
    return new


def evolve(state: Any, /, **changes: Any) -> Any:
    """``state`` with ``changes``: a :class:`WorkingState` is updated in place and returned
    (the batch replay's one state per game), anything else is copied by :func:`replace`.
    What a handler that declares itself in place (:func:`replayer.context.in_place`) writes
    its result with. Raises TypeError for a name that is not a field."""
    if state.__class__ is WorkingState:
        if not _TABLE_FIELDS.issuperset(changes):
            raise TypeError(f"TableState has no field(s) {sorted(set(changes) - _TABLE_FIELDS)}")
        state.__dict__.update(changes)
        if "seats" in changes:  # the seats given replace any changed in place
            state._seats_w = None
            state._seats_stale = False
        if "seen" in changes:
            state._seen_w = None
            state._seen_stale = False
        return state
    return replace(state, **changes)


def evolve_seat(state: Any, seat: int, /, **changes: Any) -> Any:
    """``state`` with seat ``seat``'s fields ``changes`` (:class:`SeatState` field names), as
    :func:`evolve` does for the table's: a :class:`WorkingState` changes the seat in place
    (:meth:`WorkingState.change_seat`) and is returned, anything else is copied. Raises
    TypeError for a name that is not a seat field."""
    if not _SEAT_FIELDS.issuperset(changes):
        raise TypeError(f"SeatState has no field(s) {sorted(set(changes) - _SEAT_FIELDS)}")
    if state.__class__ is WorkingState:
        ws = state.change_seat(seat)
        for name, value in changes.items():
            setattr(ws, name, list(value) if name in _SEAT_LISTS else value)
        return state
    return state.with_seat(seat, replace(state.seats[seat], **changes))


def frozen(state: TableState) -> TableState:
    """``state`` as a frozen :class:`TableState`: itself, or a working state's snapshot (what
    a ruleset's hooks are given)."""
    return state.snapshot() if state.__class__ is WorkingState else state


def _field_names(cls: type) -> frozenset[str] | None:
    """Field names of a dataclass that :func:`replace` may copy by its instance dict, or
    None when it must call ``__init__`` (``__post_init__``, init-only or ``init=False``
    fields, slots)."""
    names: frozenset[str] | None = None
    if dataclasses.is_dataclass(cls) and "__slots__" not in cls.__dict__ and not hasattr(cls, "__post_init__"):
        fields = dataclasses.fields(cls)
        if all(f.init for f in fields) and not any(
            isinstance(v, dataclasses.InitVar) for v in getattr(cls, "__annotations__", {}).values()
        ):
            names = frozenset(f.name for f in fields)
    _FIELD_NAMES[cls] = names
    return names


def fast_init(cls: type) -> type:
    """Give the frozen dataclass ``cls`` an ``__init__`` with the same signature (field
    order, defaults) that writes the fields straight into the instance dict instead of one
    ``object.__setattr__`` per field — the states are built once per event. Only for
    classes :func:`replace` may copy by dict (no ``__post_init__``, no default factories, no
    keyword-only fields); others are returned unchanged."""
    names = _field_names(cls)
    fields = dataclasses.fields(cls)
    if names is None or any(f.default_factory is not dataclasses.MISSING or f.kw_only for f in fields):
        return cls
    env: dict[str, Any] = {"_setattr": _setattr}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    # the fields written into the new instance's own dict (cheaper in CPython 3.11 than
    # giving it a dict built aside, and than one object.__setattr__ per field)
    sets = "".join(f"    __fields[{f.name!r}] = {f.name}\n" for f in fields)
    src = f"def __init__(self, {', '.join(params)}):\n    __fields = self.__dict__\n{sets}"
    exec(src, env)  # as dataclasses itself builds __init__
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    generated: Any = vars(cls)["__init__"]  # the dataclass's own __init__
    init.__doc__ = generated.__doc__
    init.__annotations__ = dict(generated.__annotations__)
    cls.__init__ = init  # type: ignore[misc]
    return cls


@fast_init
@dataclass(frozen=True)
class DeclaredMeld:
    """A declared set on the table.

    ``kind``: chow, pung or kong; ``kong_kind`` for a kong: concealed (暗杠), melded (明杠,
    from a discard) or added (加杠, a pung promoted). ``tiles``: sorted codes.
    ``claimed_tile``/``from_seat`` (absolute seat)/``discard_seq``: the discard taken (None
    for a concealed kong). ``seq``: the event that declared it; ``added_seq``: the event that
    promoted the pung, for an added kong.
    """

    kind: MeldKind
    tiles: tuple[str, ...]
    seq: int
    claimed_tile: str | None = None
    from_seat: int | None = None
    discard_seq: int | None = None
    kong_kind: KongKind | None = None
    added_seq: int | None = None

    @property
    def concealed(self) -> bool:
        return self.kong_kind == "concealed"


@fast_init
@dataclass(frozen=True)
class Discard:
    """A discarded tile in a seat's river. ``claimed_by`` is the seat that took it (chow,
    pung, melded kong or a win), or None while it lies in the river."""

    seq: int
    tile: str
    claimed_by: int | None = None


class _SeatReading:
    """What a :class:`SeatState` and a :class:`WorkingSeat` answer alike, from their fields."""

    __slots__ = ()
    tiles: Sequence[str]
    counts: Sequence[int]
    hidden: int
    melds: tuple[DeclaredMeld, ...]

    @property
    def unseen(self) -> bool:
        """True when the log hides some of this seat's tiles: ``hidden`` ones, or a concealed
        kong (暗杠) whose tile it does not show (a set with no ``tiles``: one seat's view of
        another). Such a hand cannot be scored or checked tile by tile."""
        return self.hidden > 0 or any(not m.tiles for m in self.melds)

    @property
    def concealed_size(self) -> int:
        """Concealed tiles held, unknown ones and unreplaced flowers included."""
        return len(self.tiles) + self.hidden

    @property
    def hand_size(self) -> int:
        """Concealed tiles + 3 per declared set (a kong counts 3): 13 between turns, 14
        when the seat must discard."""
        return len(self.tiles) + self.hidden + 3 * len(self.melds)  # concealed_size + 3 per set

    def holds(self, tile: str, n: int = 1) -> bool:
        i = _tiles.index(tile)
        if i >= 34:
            return self.tiles.count(tile) >= n
        return self.counts[i] >= n


@fast_init
@dataclass(frozen=True)
class SeatState(_SeatReading):
    """One seat. ``counts``: the known concealed playing tiles as a 34-count vector
    (index per eventlog.tiles); ``tiles``: the same tiles in the order received (dealt, then
    drawn), plus any flower not yet replaced; ``hidden``: concealed tiles whose identity the
    log does not show (and a concealed kong whose tile it does not show is a declared set with
    no ``tiles``). ``score``: points now; ``wind``: seat wind F1..F4 of this hand.

    A seat's faults this hand (:func:`replayer.accounting.check_size`;
    docs/reference/rules/competition.md §A9, seed 000 二十五 多张、少张, seed 003 大相公/小相公):
    ``miscount``: tiles held beyond (多张, > 0) or short of (少张, < 0) the count the rules
    give, as the seat's ``wrong_tile_count`` finding found it — its later moves are checked
    against that count plus ``miscount``, so one mistake is one finding, not one per later
    move; ``dead_hand``: 相公 — the seq of the event whose fault made the seat a dead hand
    this hand (the ruleset's ``PlayRules.dead_hand_faults``): it plays on, drawing and
    discarding, but may not claim or win; None: a live hand. Both start afresh with each
    hand; :func:`to_dict` leaves them out while they are 0 / None."""

    counts: tuple[int, ...] = EMPTY_COUNTS
    tiles: tuple[str, ...] = ()
    hidden: int = 0
    melds: tuple[DeclaredMeld, ...] = ()
    discards: tuple[Discard, ...] = ()
    flowers: tuple[str, ...] = ()
    score: int = 0
    wind: str | None = None
    dealt: bool = False
    replacements_due: int = 0
    miscount: int = dataclasses.field(default=0, metadata=_OMIT_DEFAULT)
    dead_hand: int | None = dataclasses.field(default=None, metadata=_OMIT_DEFAULT)


@fast_init
@dataclass(frozen=True)
class PendingDiscard:
    """The latest discard while claims on it are open. ``passed`` holds the claims recorded
    as lost or declined (``pass`` events): (seat, claim kind or None). ``also``: more tiles
    exposed together with ``tile`` that only a win may take (a kong that reveals two tiles,
    Changsha 开杠); ``owner_may_win``: the seat that exposed them may win on them too, as a
    self-draw (杠上开花)."""

    seq: int
    seat: int
    tile: str
    passed: tuple[tuple[int, str | None], ...] = ()
    last_of_wall: bool = False
    also: tuple[str, ...] = ()
    owner_may_win: bool = False

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile open to a win: ``tile`` and ``also``."""
        return (self.tile, *self.also)


@fast_init
@dataclass(frozen=True)
class PendingKong:
    """An added kong (加杠) that others may still rob (抢杠) before the replacement draw.
    ``tile`` None: a concealed kong the record does not show."""

    seq: int
    seat: int
    tile: str | None
    kind: KongKind = "added"


@fast_init
@dataclass(frozen=True)
class LastDraw:
    """The latest draw of the seat in turn: ``after_kong`` when it is (or follows through
    flower replacements) the replacement of a kong (杠上开花); ``last_of_wall`` when it
    emptied the wall (妙手回春)."""

    seq: int
    seat: int
    tile: str | None
    source: DrawSource
    after_kong: bool = False
    last_of_wall: bool = False


@fast_init
@dataclass(frozen=True)
class Payment:
    """One line of a settlement: ``payer`` pays ``amount`` points to ``payee`` for ``reason``
    (the ruleset's rule item, in words or as its component id). ``source``: the rule text that
    makes the payment (``docs/reference/rules/<ruleset>.md §N (…)``, a seed), so a disputed
    score names the rule that decides it; "" when the ruleset gives none."""

    payer: int
    payee: int
    amount: int
    reason: str
    source: str = ""


@fast_init
@dataclass(frozen=True)
class SettledPayment:
    """One payment of a computed settlement with the event that settled it: ``seq``, ``kind``
    (the :class:`ScoreEntry` kind: ``win``, ``exhaustive_draw``, ``bird`` …) and the
    ``payment`` (with its rule item and source)."""

    seq: int
    kind: str
    payment: Payment


@fast_init
@dataclass(frozen=True)
class Reading:
    """One settlement component that reads concealed tiles (:attr:`Settlement.reads`):
    ``component`` (its name, as in the settlement's parts), ``seats`` (0..3, whose concealed
    tiles and concealed kongs it reads) and its ``changes`` (points per seat 0..3)."""

    component: str
    seats: tuple[int, ...]
    changes: tuple[int, int, int, int]


@fast_init
@dataclass(frozen=True)
class Unsettled:
    """Score changes a replay could not compute because they read tiles the record hides
    (one seat's view, docs/reference/DESIGN.md §8): the settling event ``seq`` and its
    ``hand_number``, the ``seats`` whose hidden tiles they read, ``what`` in words ("the
    jing, kong components of event 47", "the win of seat 1 (event 119)"), the ``winner``
    whose reported score covers them (None: no report does — an exhaustive draw's) and
    ``part``: ``"win"`` (a win by a hidden hand: neither its score nor its changes are
    known), ``"score"`` (the win's points read another hidden hand) or ``"settlement"``
    (settlement components). The report that covers them (``score_reported``) gives the
    changes; until then the table's scores leave them out."""

    seq: int
    hand_number: int | None
    seats: tuple[int, ...]
    what: str
    winner: int | None = None
    part: Literal["win", "score", "settlement"] = "settlement"


@fast_init
@dataclass(frozen=True)
class Settlement:
    """Score changes of one settled thing (a win, a penalty …) with its explanation.

    ``changes``: points per seat 0..3. Built by :meth:`from_payments`, which makes it
    zero-sum by construction; the constructor asserts ``sum(changes) == 0`` unless
    ``zero_sum`` is False (a referee's 死分 leaves play). ``parts``: the changes split by the
    ruleset's settlement components, ``(component, changes)`` in order (empty: one part,
    the settlement's kind) — :meth:`by_reason` builds them from the payments' reasons.
    ``reads``: the components whose amounts read other seats' concealed tiles (a
    :class:`Reading` each: Nanchang's jing bonus reads every hand, Sichuan's 查叫 the hands
    still in); empty: the settlement reads nothing concealed but, for a win, the winner's
    hand. The replayer leaves out of the table's scores a component that reads a hand the
    record hides (one seat's view): it cannot be computed from the record."""

    changes: tuple[int, int, int, int]
    payments: tuple[Payment, ...] = ()
    zero_sum: bool = True
    parts: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()
    reads: tuple[Reading, ...] = ()

    def __post_init__(self) -> None:
        if len(self.changes) != 4:
            raise ValueError(f"a settlement has 4 score changes, got {self.changes}")
        if self.zero_sum and sum(self.changes) != 0:
            raise AssertionError(f"settlement is not zero-sum: {self.changes}")

    @classmethod
    def from_payments(cls, payments: tuple[Payment, ...] | list[Payment]) -> Settlement:
        ch = [0, 0, 0, 0]
        for p in payments:
            ch[p.payer] -= p.amount
            ch[p.payee] += p.amount
        return cls(changes=(ch[0], ch[1], ch[2], ch[3]), payments=tuple(payments))

    @classmethod
    def by_reason(cls, payments: tuple[Payment, ...] | list[Payment]) -> Settlement:
        """:meth:`from_payments` with ``parts``: one component per payment ``reason``, in
        order of first appearance (each zero-sum)."""
        parts: dict[str, list[int]] = {}
        for p in payments:
            ch = parts.setdefault(p.reason, [0, 0, 0, 0])
            ch[p.payer] -= p.amount
            ch[p.payee] += p.amount
        s = cls.from_payments(payments)
        return replace(s, parts=tuple((k, (v[0], v[1], v[2], v[3])) for k, v in parts.items()))


NO_CHANGE = Settlement(changes=(0, 0, 0, 0))


@fast_init
@dataclass(frozen=True)
class WinRecord:
    """A win as replayed: the declaring event, the situation given to the scorer (MCR: a
    ``WinSituation``), the ruleset's explained score (MCR: a ``FanResult``) and its
    ``points``, the computed settlement (None when the win was not legal or not settled),
    whether it was legal, and the ruleset-neutral ``context`` (a ``WinContext``).
    ``unscored``: the winner's hand is hidden in the record (one seat's view): the win is
    taken as declared — legal, the table goes on after it — with no score, points or
    settlement of its own; its reported score (``score_reported``) is what it settles.
    ``later_changes``: what the rules settle for this win at a later event of its hand
    (Changsha's birds 扎鸟, turned after the win, docs/reference/rules/changsha.md §5.1) —
    part of the win's whole settlement (:attr:`changes`), which a reported score gives
    (docs/events.md ``score_reported``); ``later_payments``: their payments, itemized."""

    seq: int
    seat: int
    tile: str
    self_drawn: bool
    from_seat: int | None
    robbing_kong: bool
    legal: bool
    situation: object = None
    score: ExplainedScore | None = None
    points: int | None = None
    settlement: Settlement | None = None
    discard_seq: int | None = None
    context: Any = None
    unscored: bool = False
    later_changes: tuple[int, int, int, int] = (0, 0, 0, 0)
    later_payments: tuple[SettledPayment, ...] = ()

    @property
    def changes(self) -> tuple[int, int, int, int] | None:
        """The win's whole settlement, points per seat 0..3: :attr:`settlement` with
        :attr:`later_changes` — what its ``score_reported`` gives; None when the win was not
        settled (not legal, or unscored)."""
        if self.settlement is None:
            return None
        a, b = self.settlement.changes, self.later_changes
        return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


@fast_init
@dataclass(frozen=True)
class ReportedScore:
    """A ``score_reported`` event kept next to the computed result it was compared with.
    ``agrees``: nothing compared disagrees. ``unverifiable``: why a part of it could not be
    compared (empty: every part was) — it reads tiles the record hides ("the score changes
    cannot be checked: …"); ``computed_changes`` / ``computed_total`` are then None for the
    part that could not be computed. ``computed_payments``: the payments that make up
    ``computed_changes``, each with its rule item and source (empty when none was computed;
    replayer/itemized.py lines them up by rule)."""

    seq: int
    winner: int | None
    score_changes: tuple[int, int, int, int] | None
    total: int | None
    fans: tuple[tuple[str, int | None, int], ...]
    computed_changes: tuple[int, int, int, int] | None
    computed_total: int | None
    agrees: bool
    unverifiable: str = ""
    computed_payments: tuple[SettledPayment, ...] = ()


@fast_init
@dataclass(frozen=True)
class ScoreEntry:
    """A score change applied to the seats: a settled win, a penalty, a ruling. ``parts``:
    the settlement's components (:attr:`Settlement.parts`; empty: all of it is ``kind``);
    ``payments``: the settlement's payments (:attr:`Settlement.payments`; empty for changes
    given as a vector, e.g. a penalty event's)."""

    seq: int
    kind: Literal["win", "penalty", "ruling", "kong", "exhaustive_draw", "opening", "opening_bird", "bird"]
    changes: tuple[int, int, int, int]
    reason: str = ""
    parts: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()
    payments: tuple[Payment, ...] = ()


@fast_init
@dataclass(frozen=True)
class HandResult:
    """Summary of a finished hand, kept for dealer rotation and the game record."""

    hand_number: int
    dealer: int
    prevalent_wind: str
    winners: tuple[int, ...]
    exhaustive_draw: bool
    changes: tuple[int, int, int, int]
    #: 平盘: the hand does not count (three seats robbed one kong, seed 003); the same
    #: dealer deals again and it is no continuation (PlayRules.robbers_void).
    void: bool = False
    #: the seq of the hand's hand_started: what the score log holds from it to the next hand's
    #: is this hand's (replayer/itemized.py, the game's changes by hand); -1 when unknown
    start_seq: int = -1
    #: the hand's score_reported events with their comparison (TableState.reported at its end)
    reported: tuple[ReportedScore, ...] = ()


@fast_init
@dataclass(frozen=True)
class TableState:
    """The whole table after the event ``seq`` (−1 before any event).

    Game: ``game_id``, ``ruleset_id``, ``ruleset_options`` (sorted (key, value) pairs as
    given in game_started), ``players``, ``initial_scores``, ``hands`` (finished hands),
    ``hands_started``, ``first_dealer`` and ``first_prevalent_wind`` (the first hand: the
    anchor of dealer rotation). Hand: ``hand_number``, ``dealer``, ``prevalent_wind`` (F1..F4),
    ``seats`` (4 :class:`SeatState`), ``wall`` (the tiles not yet taken, when the log gave
    the wall; else None — one wall: in draw order, front = next draw, back = next
    replacement; per-seat walls: the seats' remaining walls one after another, seat 0's
    first, ``seat_walls[s]`` tiles each, front = what the seat takes next),
    ``wall_remaining`` (tiles left to draw), ``seat_walls`` (per-seat walls only: tiles left
    in each seat's wall), ``deal_pool`` (known wall only: 42-count vector
    of the dealt part not yet dealt), ``seen`` (42-count vector of tiles identified as out
    of the wall this hand: the tile accounting), ``phase``, ``turn``, ``pending`` (latest
    discard open to claims), ``pending_kong`` (added kong open to robbing), ``last_draw``,
    ``wins`` (this hand), ``false_win`` (a false win happened this hand),
    ``exhaustive_draw``, ``reported`` (score_reported events with their comparison),
    ``score_log`` (every applied score change), ``wildcard_indicator``, ``game_over`` (the
    ruleset's end of game reached), ``hand_start_scores`` and ``hand_start_seq`` (the scores
    and the event seq at this hand's hand_started: what the hand settled since is the hand's),
    ``rule_memory`` (what the ruleset
    remembers across events through its optional ``observe`` hook — e.g. Nanchang 弃胡, 抄庄;
    None for rulesets without one), ``in_hand`` (per seat: still playing this hand; a winner
    leaves a hand that goes on after a win, ``PlayRules.hand_end``), ``unsettled`` (this
    game's score changes that read tiles the record hides and no report has given yet:
    :class:`Unsettled`; empty in a record that shows every hand), ``deal_owed`` (the tiles
    a dealer whose deal the record hides holds beyond ``other_tiles`` and has not yet
    shown a sign of: settled by its draw or its first action of the deal), ``source_scoring``
    (the scoring format the source says it used: game_started's metadata ``scoring``, e.g. a
    PMN ``[Scoring "Duplicate"]``; None when it says none — a reported score that disagrees
    then says so, replayer/handlers/scores.py).
    """

    seq: int = -1
    game_id: str = ""
    ruleset_id: str | None = None
    ruleset_options: tuple[tuple[str, Any], ...] = ()
    players: tuple[str, ...] = ()
    initial_scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    phase: Phase = "pregame"
    hands: tuple[HandResult, ...] = ()
    hands_started: int = 0
    hand_number: int | None = None
    dealer: int | None = None
    first_dealer: int | None = None
    first_prevalent_wind: str | None = None
    prevalent_wind: str | None = None
    seats: tuple[SeatState, SeatState, SeatState, SeatState] = (
        SeatState(), SeatState(), SeatState(), SeatState()
    )
    wall: tuple[str, ...] | None = None
    wall_remaining: int = 0
    seat_walls: tuple[int, int, int, int] | None = None
    deal_pool: tuple[int, ...] | None = None
    seen: tuple[int, ...] = (0,) * 42
    turn: int | None = None
    pending: PendingDiscard | None = None
    pending_kong: PendingKong | None = None
    last_draw: LastDraw | None = None
    wins: tuple[WinRecord, ...] = ()
    false_win: bool = False
    exhaustive_draw: bool = False
    void_hand: bool = False
    reported: tuple[ReportedScore, ...] = ()
    score_log: tuple[ScoreEntry, ...] = ()
    wildcard_indicator: str | None = None
    game_over: bool = False
    hand_start_scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    hand_start_seq: int = -1
    rule_memory: Any = None
    in_hand: tuple[bool, bool, bool, bool] = (True, True, True, True)
    unsettled: tuple[Unsettled, ...] = ()
    deal_owed: int = 0
    source_scoring: str | None = None

    @property
    def scores(self) -> tuple[int, int, int, int]:
        s = self.seats
        return (s[0].score, s[1].score, s[2].score, s[3].score)

    def seat(self, i: int) -> SeatState:
        return self.seats[i]

    def seat_now(self, i: int) -> SeatState | WorkingSeat:
        """Seat ``i`` to read at once: its :class:`SeatState` (a :class:`WorkingState` gives
        the seat it is changing in place, which reads alike)."""
        return self.seats[i]

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in turn order that is still in the hand."""
        return _seats.next_seat(seat, self.in_hand)

    def with_seat(self, i: int, seat: SeatState) -> TableState:
        seats = list(self.seats)
        seats[i] = seat
        return replace(self, seats=(seats[0], seats[1], seats[2], seats[3]))

    def find_discard(self, seq: int) -> tuple[int, int, Discard] | None:
        """(seat, position in river, discard) of the discard event ``seq`` in this hand."""
        for s in range(4):
            for k, d in enumerate(self.seat_now(s).discards):
                if d.seq == seq:
                    return s, k, d
        return None

    def visible_count(self, tile: str) -> int:
        """Copies of ``tile`` face up on the table: in rivers (not claimed: a claimed discard
        is counted in its meld) and in exposed sets (a concealed kong is face down)."""
        n = 0
        for st in self.seats:
            n += sum(1 for d in st.discards if d.claimed_by is None and d.tile == tile)
            for m in st.melds:
                if not m.concealed:
                    n += m.tiles.count(tile)
        return n


class WorkingSeat(_SeatReading):
    """批量重放中的座位: one seat of a :class:`WorkingState` that the handlers declared in
    place change where it is — its concealed tiles (``counts``, ``tiles``) and its river
    (``discards``) as lists, every other field as in :class:`SeatState`. It reads like a
    SeatState (the same fields and properties); :meth:`freeze` is the SeatState it holds now.
    Only a working state hands one out (:meth:`WorkingState.change_seat`,
    :meth:`WorkingState.seat_now`): read or change it at once, never keep it. Not hashable;
    equal only to itself."""

    __slots__ = ("counts", "tiles", "hidden", "melds", "discards", "flowers", "score", "wind", "dealt",
                 "replacements_due", "miscount", "dead_hand")
    counts: list[int]
    tiles: list[str]
    discards: list[Discard]
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, st: SeatState) -> None:
        d = st.__dict__
        self.counts = list(d["counts"])
        self.tiles = list(d["tiles"])
        self.hidden = d["hidden"]
        self.melds = d["melds"]
        self.discards = list(d["discards"])
        self.flowers = d["flowers"]
        self.score = d["score"]
        self.wind = d["wind"]
        self.dealt = d["dealt"]
        self.replacements_due = d["replacements_due"]
        self.miscount = d["miscount"]
        self.dead_hand = d["dead_hand"]

    def __eq__(self, other: object) -> bool:
        return self is other

    def freeze(self) -> SeatState:
        """The frozen :class:`SeatState` this seat holds now."""
        st = _new(SeatState)
        _setattr(st, "__dict__", {
            "counts": tuple(self.counts), "tiles": tuple(self.tiles), "hidden": self.hidden,
            "melds": self.melds, "discards": tuple(self.discards), "flowers": self.flowers,
            "score": self.score, "wind": self.wind, "dealt": self.dealt,
            "replacements_due": self.replacements_due, "miscount": self.miscount, "dead_hand": self.dead_hand,
        })
        return st


class WorkingState(TableState):
    """批量重放的工作状态: the table state of one game that the replay step
    (:class:`replayer.replay._Game`: the batch replay :func:`replayer.replay.replay_game`, and
    :func:`replayer.replay.apply` on a working copy) updates in place, event after event,
    instead of building a new frozen :class:`TableState` per event.

    It has every field and method of :class:`TableState` (it is one, for reading). Only
    :func:`evolve` and the in-place changes below change it; :func:`replace` (and
    ``with_seat``) of it gives a frozen copy, so code written for frozen states never
    changes it by accident. :meth:`snapshot` is the frozen state it holds now (equal to what
    the per-event replay gives after the same events); :meth:`absorb` takes over a state a
    handler returned. Not hashable; equal only to itself.

    In-place changes (what the hot handlers — draws, discards — use, through
    replayer/accounting.py): :meth:`change_seat` hands out a seat as a mutable
    :class:`WorkingSeat` and :meth:`change_seen` the tile accounting vector ``seen`` as a
    list; they are folded back into the frozen ``seats`` / ``seen`` fields only when those are
    read (a snapshot, a frozen handler, a ruleset hook, the facts), so a run of draws and
    discards builds no seat tuple. :meth:`seat_now` reads a seat without folding."""

    # the seats changed in place since ``seats`` was last written (None: none; else one
    # WorkingSeat or None per seat; they stay after a fold, so a state read after every
    # event — a ruleset with hooks — is not thawed again each time), which of them changed
    # since the last fold, whether any did; ``seen`` as a list, whether it changed since;
    # and the instance dict (the fields), held in a slot: quicker to reach than ``__dict__``
    __slots__ = ("_seats_w", "_seats_dirty", "_seats_stale", "_seen_w", "_seen_stale", "_held")
    _seats_w: list[WorkingSeat | None] | None
    _seats_dirty: list[bool]
    _seats_stale: bool
    _seen_w: list[int] | None
    _seen_stale: bool
    _held: dict[str, Any]

    __setattr__ = object.__setattr__  # mutable, unlike its frozen base (only evolve writes)
    __delattr__ = object.__delattr__
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return self is other

    @classmethod
    def of(cls, state: TableState) -> WorkingState:
        """A working copy of ``state``."""
        w = _new(cls)
        _setattr(w, "__dict__", (state.snapshot() if state.__class__ is cls else state).__dict__.copy())
        w._held = w.__dict__
        w._seats_w = None
        w._seats_stale = False
        w._seen_w = None
        w._seen_stale = False
        return w

    @property
    def seats(self) -> tuple[SeatState, SeatState, SeatState, SeatState]:
        """The four seats, frozen (the seats changed in place folded in)."""
        if self._seats_stale:
            self._fold_seats()
        return self._held["seats"]

    @property
    def seen(self) -> tuple[int, ...]:
        """The tile accounting vector, frozen."""
        if self._seen_stale:
            self._fold_seen()
        return self._held["seen"]

    def _fold_seats(self) -> None:
        changed, dirty = self._seats_w, self._seats_dirty
        assert changed is not None
        seats = list(self._held["seats"])
        for i, ws in enumerate(changed):
            if ws is not None and dirty[i]:
                seats[i] = ws.freeze()
                dirty[i] = False
        self._held["seats"] = (seats[0], seats[1], seats[2], seats[3])
        self._seats_stale = False

    def _fold_seen(self) -> None:
        assert self._seen_w is not None
        self._held["seen"] = tuple(self._seen_w)
        self._seen_stale = False

    def seat_now(self, i: int) -> SeatState | WorkingSeat:
        """Seat ``i`` as it is now, to read at once: the :class:`WorkingSeat` while it is
        being changed in place, else its :class:`SeatState`."""
        changed = self._seats_w
        if changed is not None:
            ws = changed[i]
            if ws is not None:
                return ws
        return self._held["seats"][i]

    def change_seat(self, i: int) -> WorkingSeat:
        """Seat ``i`` to change in place (what it holds is in the state's ``seats`` the next
        time they are read)."""
        changed = self._seats_w
        if changed is None:
            changed = self._seats_w = [None, None, None, None]
            self._seats_dirty = [False, False, False, False]
        ws = changed[i]
        if ws is None:
            ws = changed[i] = WorkingSeat(self._held["seats"][i])
        self._seats_dirty[i] = True
        self._seats_stale = True
        return ws

    def change_seen(self) -> list[int]:
        """The tile accounting vector ``seen`` (42 counts) to change in place."""
        seen = self._seen_w
        if seen is None:
            seen = self._seen_w = list(self._held["seen"])
        self._seen_stale = True
        return seen

    def settle(self) -> None:
        """Fold what was changed in place into the state's fields (its instance dict then
        holds the frozen state)."""
        if self._seats_stale:
            self._fold_seats()
        if self._seen_stale:
            self._fold_seen()

    def snapshot(self) -> TableState:
        """The frozen state this working state holds now."""
        self.settle()
        s = _new(TableState)
        _setattr(s, "__dict__", self.__dict__.copy())
        return s

    def absorb(self, state: TableState) -> None:
        """Hold what ``state`` holds (a state a handler or hook returned; itself: nothing)."""
        if state is not self:
            self.__dict__.update(state.__dict__ if state.__class__ is not WorkingState else state.snapshot().__dict__)
            self._seats_w = None
            self._seats_stale = False
            self._seen_w = None
            self._seen_stale = False


_TABLE_FIELDS: frozenset[str] = frozenset(f.name for f in dataclasses.fields(TableState))
_SEAT_FIELDS: frozenset[str] = frozenset(f.name for f in dataclasses.fields(SeatState))
#: The seat fields a :class:`WorkingSeat` holds as lists.
_SEAT_LISTS = frozenset({"counts", "tiles", "discards"})
if frozenset(WorkingSeat.__slots__) != _SEAT_FIELDS:
    raise ImportError("WorkingSeat is out of step with SeatState's fields")


def to_dict(state: TableState) -> dict[str, Any]:
    """JSON-ready dict of a state (dataclasses → dicts, tuples → lists). A field declared
    with ``_OMIT_DEFAULT`` is left out while it holds its default (``SeatState.miscount``,
    ``dead_hand``: present only for a seat with a fault)."""
    d = _plain(state)
    d["scores"] = list(state.scores)
    return d


def _plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(v) for f in dataclasses.fields(obj)
                if not ((v := getattr(obj, f.name)) == f.default and f.metadata.get("omit_default"))}
    if isinstance(obj, (tuple, list)):
        return [_plain(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in sorted(obj.items())}
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    return obj
