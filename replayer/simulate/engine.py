"""Simulated games under any registered ruleset (``paipu simulate``).

The engine talks to the ruleset only through the ruleset interface (replayer/rules/base.py)
and to the table only through the replayer: every event it writes is applied at once with
:func:`replayer.replay.apply` in **strict** mode, so the replayer is the judge — an event it
refuses is a simulator bug and raises :class:`SimulationError` (with the game id and seed
needed to reproduce it).

What the engine decides itself is what is not a choice: the shuffled wall, the dice, the
deal, draws from the wall, kong and flower replacement draws, the exhaustive draw. What
seats choose comes from :func:`replayer.actions.legal_actions`, one bot per seat
(replayer/simulate/bots.py); several claims on one discard are settled by
:func:`replayer.actions.resolve_claims`, and each claim that lost is recorded as a
``pass`` event naming its claim.

Determinism: one ``random.Random`` per hand (wall and dice) and per seat and game (bots),
seeded from SHA-256 of ``"{seed}/{game}/{hand}"`` / ``"{seed}/{game}/bot{seat}"``; the hand
seed string, the dice and the whole wall are written in ``hand_started``. Event ids are
UUIDv5 of ``"{game_id}/{seq}"``. No clock is read. The same configuration gives the same
events, byte for byte.

Walls: the ``hand_started`` wall lists every tile of the ruleset's set in draw order.
Shared wall: the first ``dealer_tiles + 3·other_tiles`` are dealt (dealer first, in turn
order), draws take the front, replacement draws the back. Per-seat walls (``wall_layout``
"per_seat"): seat s owns the s-th quarter and takes every tile from its front — deal,
draws and replacement draws alike (Botzone's judge; the replayer checks it, DESIGN.md §4).

After a win, the engine writes a ``score_reported`` event per winner with what *it*
computed from the ruleset (``score_win`` through legal actions, ``settle_win``): fans,
total and score changes — the win's whole settlement, with what the hand settles for it
after the win (Changsha's birds), as docs/events.md defines a reported score. The replayer recomputes them from the events and, in strict mode,
refuses the event on any difference.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from eventlog import events as ev
from eventlog import tiles as _tiles
from eventlog.errors import PaipuError
from eventlog.seats import seats_after
from replayer.actions import Action, legal_actions, resolve_claims, wall_empty_for
from replayer.explained import ExplainedScore
from replayer.findings import ReplayError
from replayer.replay import apply
from replayer.rules.base import PlayRules, Ruleset, get_ruleset, resolved_options
from replayer.simulate.bots import Bot, make_bot
from replayer.state import TableState

__all__ = [
    "SimulatedGame",
    "SimulatedWin",
    "SimulationConfig",
    "SimulationError",
    "derive_seed",
    "reported_fans",
    "simulate",
    "simulate_game",
]


class SimulationError(PaipuError, RuntimeError):
    """The replayer refused a simulated event (a bug), or the simulation is stuck."""

    grpc_code = "INTERNAL"


def derive_seed(*parts: object) -> int:
    """A 64-bit integer seed from ``parts`` joined by ``/`` (SHA-256, big-endian)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class SimulationConfig:
    """What to simulate. ``ruleset``/``options``: as in game_started. ``seed``: the run's
    seed (any int or string). ``hands_per_game``: stop a game after that many hands (None:
    play until the ruleset's end of game). ``bots``: one bot name per seat (or one for all).
    ``claim_probability``: the greedy bot's chance to consider a chow or pung.
    ``max_hands``: without ``hands_per_game``, a game also stops after this many hands (a
    ruleset may leave the length of a game to the log — Nanchang — and never end it)."""

    ruleset: str = "mcr"
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | str = 0
    hands_per_game: int | None = None
    bots: tuple[str, ...] = ("greedy",)
    claim_probability: float = 0.5
    max_hands: int = 64

    def __post_init__(self) -> None:
        if len(self.bots) not in (1, 4):
            raise ValueError(f"give one bot for all seats or four, got {len(self.bots)}")
        if self.hands_per_game is not None and self.hands_per_game < 1:
            raise ValueError(f"hands_per_game must be >= 1, got {self.hands_per_game}")

    def bot_names(self) -> tuple[str, str, str, str]:
        b = self.bots * 4 if len(self.bots) == 1 else self.bots
        return (b[0], b[1], b[2], b[3])

    def game_id(self, game: int) -> str:
        """``sim-<ruleset>-<seed>-<game>``, with a digest of the options, bots, hands per
        game and claim probability when any differs from the defaults (so two different
        runs with one seed never share a game id)."""
        variant = {
            "options": dict(self.options), "bots": list(self.bot_names()),
            "hands_per_game": self.hands_per_game, "claim_probability": self.claim_probability,
        }
        default: dict[str, Any] = {"options": {}, "bots": ["greedy"] * 4, "hands_per_game": None, "claim_probability": 0.5}
        tag = "" if variant == default else "-" + hashlib.sha256(ev.canonical_bytes(variant)).hexdigest()[:8]
        return f"sim-{self.ruleset}-{self.seed}{tag}-{game:06d}"


@dataclass(frozen=True)
class SimulatedWin:
    """A win as the simulator computed it: the win event's ``seq``, ``seat``, the
    ``action`` (with the ruleset's WinScore and WinContext), ``points``, ``fans``
    ((name, points, count) as reported) and ``changes`` (the win's whole settlement, as
    reported)."""

    seq: int
    hand_number: int
    seat: int
    action: Action
    points: int
    fans: tuple[tuple[str, int | None, int], ...]
    changes: tuple[int, int, int, int]


@dataclass(frozen=True)
class SimulatedGame:
    """One simulated game: its id, events (in seq order), the replayer's final state, the
    wins as the simulator computed them, and the number of hands played."""

    game_id: str
    events: tuple[ev.NewEvent, ...]
    state: TableState
    wins: tuple[SimulatedWin, ...]
    hands: int

    def jsonl_lines(self) -> Iterator[bytes]:
        """Each event as one canonical JSON line (NewEvent fields + ``game_id`` + ``seq``),
        the form ``paipu ingest --format jsonl`` reads."""
        for seq, e in enumerate(self.events):
            d = e.model_dump_json_dict()
            d["game_id"] = self.game_id
            d["seq"] = seq
            yield ev.canonical_bytes(d) + b"\n"


def reported_fans(explained: ExplainedScore | None) -> tuple[tuple[str, int | None, int], ...]:
    """(English name, points, count) of each item of an explained score
    (replayer/explained.py), as a score_reported event lists them; () for none."""
    if explained is None:
        return ()
    return tuple((line.name_en, line.value, line.count) for line in explained.lines())


class _Walls:
    """The engine's view of the wall(s): what the next deal, draw or replacement takes."""

    def __init__(self, wall: list[str], play: PlayRules, dealer: int) -> None:
        self.per_seat = play.wall_layout == "per_seat"
        if self.per_seat:
            n = len(wall) // 4
            self.walls = [list(wall[s * n:(s + 1) * n]) for s in range(4)]
        else:
            self.walls = [list(wall)]
        self.front = [0] * len(self.walls)
        self.back = [len(w) for w in self.walls]

    def _w(self, seat: int) -> int:
        return seat if self.per_seat else 0

    def take(self, seat: int, n: int = 1, *, replacement: bool = False, state: TableState | None = None) -> list[str]:
        """The next ``n`` tiles for ``seat``. Draws from a shared wall follow the replayer's
        own wall (``state.wall``) when it has one, so a ruleset that takes tiles out of the
        wall itself (e.g. a wildcard indicator removed, Nanchang A-1) stays in step."""
        if state is not None and state.wall is not None and not self.per_seat:
            wall = state.wall
            if len(wall) < n:
                raise SimulationError(f"seat {seat} must take {n} tiles from an exhausted wall")
            return list(wall[len(wall) - n:][::-1]) if replacement else list(wall[:n])
        w = self._w(seat)
        if self.back[w] - self.front[w] < n:
            raise SimulationError(f"seat {seat} must take {n} tiles from an exhausted wall")
        if replacement and not self.per_seat:
            self.back[w] -= n
            return self.walls[w][self.back[w]:self.back[w] + n][::-1]
        out = self.walls[w][self.front[w]:self.front[w] + n]
        self.front[w] += n
        return out


class _Game:
    def __init__(self, config: SimulationConfig, ruleset: Ruleset, game: int) -> None:
        self.config = config
        self.rs = ruleset
        self.game = game
        self.game_id = config.game_id(game)
        self.state = TableState()
        self.events: list[ev.NewEvent] = []
        self.wins: list[SimulatedWin] = []
        self.bots: list[Bot] = [
            make_bot(name, random.Random(derive_seed(config.seed, game, f"bot{seat}")), config.claim_probability,
                     ruleset.play.max_suits, ruleset.void_suit)
            for seat, name in enumerate(config.bot_names())
        ]

    # -- events ---------------------------------------------------------------------

    def emit(self, payload: ev.Payload) -> int:
        seq = len(self.events)
        e = ev.NewEvent.of(payload, game_seq=(self.game_id, seq))
        try:
            self.state, _ = apply(self.state, e, self.rs, "strict")
        except ReplayError as err:
            raise SimulationError(
                f"{self.game_id} (seed {self.config.seed!r}, game {self.game}): the replayer refused "
                f"event {seq} {e.type} {payload.model_dump(mode='json')}: {err}"
            ) from err
        self.events.append(e)
        return seq

    # -- a game ---------------------------------------------------------------------

    def play(self) -> SimulatedGame:
        cfg = self.config
        bots = ",".join(cfg.bot_names())
        self.emit(ev.GameStarted(
            # a preset (mcr1998, nanchang_002 …) is written out as its base ruleset and the
            # options it sets, so the log stands alone
            ruleset=self.rs.id, ruleset_options=resolved_options(cfg.ruleset, cfg.options),
            players=[f"{b}-{s}" for s, b in enumerate(cfg.bot_names())],
            # a ruleset with stacks (chips) says what each seat starts with
            initial_scores=list(self.rs.initial_scores()),
            source=f"paipu simulate seed={cfg.seed} game={self.game} bots={bots}",
        ))
        hands = 0
        limit = cfg.hands_per_game if cfg.hands_per_game is not None else cfg.max_hands
        while hands < limit:
            plan = self.rs.next_hand(self.state)
            if plan is None:
                break
            self.play_hand(hands, plan.dealer, plan.prevalent_wind)
            hands += 1
        self.emit(ev.GameEnded(final_scores=list(self.state.scores)))
        return SimulatedGame(self.game_id, tuple(self.events), self.state, tuple(self.wins), hands)

    def play_hand(self, number: int, dealer: int, wind: str) -> None:
        play = self.rs.play
        hand_seed = f"{self.config.seed}/{self.game}/{number}"
        rng = self.hand_rng = random.Random(derive_seed(hand_seed))
        wall = [_tiles.code(i) for i, n in enumerate(play.tile_copies) for _ in range(n)]
        rng.shuffle(wall)
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        self.emit(ev.HandStarted(hand_number=number, prevalent_wind=wind, dealer=dealer, dice=dice,
                                 wall=wall, seed=hand_seed))
        walls = _Walls(wall, play, dealer)
        for seat in (dealer, *seats_after(dealer)):
            n = play.dealer_tiles if seat == dealer else play.other_tiles
            self.emit(ev.TilesDealt(seat=seat, tiles=walls.take(seat, n)))
        steps = 0
        while self.state.phase != "hand_over":
            steps += 1
            if steps > 10_000:
                raise SimulationError(f"{self.game_id} hand {number}: no end after 10000 steps")
            if not self.owed_events():
                self.step(walls, number)
        self.owed_events()  # e.g. bird tiles turned after the win
        now = {r.seq: r.changes for r in self.state.wins if r.legal and r.changes is not None}
        for k, w in enumerate(self.wins):
            if w.hand_number == number:
                # the win's whole settlement, with what the hand settled for it after the win
                # (e.g. Changsha's birds): what a reported score gives (docs/events.md)
                w = self.wins[k] = replace(w, changes=now.get(w.seq, w.changes))
                self.emit(ev.ScoreReported(winner=w.seat, score_changes=list(w.changes),
                                           fans=[ev.ReportedFan(name=n, points=p, count=c) for n, p, c in w.fans],
                                           total=w.points))
        self.emit(ev.HandEnded(hand_number=number))

    def step(self, walls: _Walls, number: int) -> None:
        st, play = self.state, self.rs.play
        ph = st.phase
        if ph == "dealing":
            dealer = st.dealer or 0
            due = next((s for s in (dealer, *seats_after(dealer, st.in_hand)) if st.seats[s].replacements_due), None)
            if due is not None:
                self.draw(walls, due, "flower_replacement")
                return
            dealer = st.dealer or 0
            if st.seats[dealer].hand_size < play.other_tiles + 1:  # a dealer dealt 13 draws the 14th
                self.draw(walls, dealer, "wall")
                return
            if play.wildcards and st.wildcard_indicator is None:
                self.reveal_indicator(walls)
                return
            self.act_alone()
        elif ph == "discard":
            self.act_alone()
        elif ph == "replacement":
            seat = st.turn if st.turn is not None else 0
            pk = st.pending_kong
            self.draw(walls, seat, "kong_replacement" if pk is not None and pk.seat == seat else "flower_replacement")
        elif ph in ("claims", "robbing"):
            actions = legal_actions(st, self.rs)
            discarder = st.pending.seat if ph == "claims" and st.pending else (st.pending_kong.seat if st.pending_kong else 0)
            choices = [self.bots[seat].choose(st, seat, acts) for seat, acts in _by_seat(actions)]
            taken, lost = resolve_claims(choices, discarder, play)
            if taken:
                for a in lost:
                    self.emit(a.lost_claim())
                for a in taken:
                    self.take(a, number)
            elif ph == "robbing":
                self.draw(walls, st.turn if st.turn is not None else discarder, "kong_replacement")
            else:
                drawer = st.turn if st.turn is not None else st.next_seat(discarder)
                if wall_empty_for(st, play, drawer):
                    self.emit(ev.ExhaustiveDraw())
                else:
                    self.draw(walls, drawer, "wall")
        else:
            raise SimulationError(f"{self.game_id} hand {number}: nothing to do in phase {ph!r}")

    def owed_events(self) -> bool:
        """Write the events of the ruleset's own procedures the table owes now (the ruleset's
        optional ``pending_events`` hook, replayer/rules/base.py); True when there were any."""
        owed = self.rs.pending_events(self.state, self.hand_rng)
        for payload in owed:
            seq = self.emit(payload)
            if isinstance(payload, ev.WinDeclared):  # a win the table's procedure gives (e.g. 杠上开花)
                rec = self.state.wins[-1]
                if rec.legal and rec.settlement is not None:
                    act = Action(payload.seat, "self_drawn_win", payload.tile, context=rec.context)
                    self.wins.append(SimulatedWin(seq, self.state.hand_number or 0, payload.seat, act,
                                                  rec.points or 0, reported_fans(rec.score), rec.settlement.changes))
        return bool(owed)

    def reveal_indicator(self, walls: _Walls) -> None:
        """Turn up the wildcard indicator after the deal (rulesets with ``PlayRules.wildcards``).

        Where the indicator lies is the ruleset's rule (Nanchang: counted from the tail by a
        dice roll, shared/rules/nanchang.md §3.1, §4.1), checked by the replayer: the engine
        rolls the dice and offers the remaining wall's tiles from the tail, keeping the
        first the replayer accepts in strict mode."""
        st = self.state
        dice = [self.hand_rng.randint(1, 6), self.hand_rng.randint(1, 6)]
        tail = list(st.wall[::-1]) if st.wall is not None else [_tiles.code(i) for i in range(34)]
        tried: list[str] = []
        for tile in tail:
            if tile in tried or self.rs.play.is_flower(tile):
                continue
            tried.append(tile)
            payload = ev.WildcardIndicatorRevealed(indicator=tile, dice=dice)
            if not self._accepted(payload):
                continue
            self.emit(self._with_lower_indicator(payload, tail))
            return
        raise SimulationError(f"{self.game_id}: the replayer accepts no wildcard indicator (tried {tried})")

    def _accepted(self, payload: ev.Payload) -> bool:
        """Would the replayer accept ``payload`` now, in strict mode?"""
        try:
            apply(self.state, ev.NewEvent.of(payload, game_seq=(self.game_id, len(self.events))),
                  self.rs, "strict")
        except ReplayError:
            return False
        return True

    def _with_lower_indicator(self, payload: ev.WildcardIndicatorRevealed,
                              tail: list[str]) -> ev.WildcardIndicatorRevealed:
        """The reveal with its 下精 indicator (``lower_indicator``, the tile under the
        indicator: Nanchang §4.1, §11) filled from the wall the engine used: the one tile
        kind of the wall the replayer accepts there. Left empty when the replayer accepts
        any (a ruleset that does not place it) or none."""
        kinds = sorted({t for t in tail if not _tiles.is_flower(t)}, key=_tiles.index)
        ok = [t for t in kinds
              if self._accepted(payload.model_copy(update={"lower_indicator": t}))]
        if len(ok) != 1:
            return payload
        return payload.model_copy(update={"lower_indicator": ok[0]})

    def act_alone(self) -> None:
        """The one seat that may act (dealer's first turn, a turn after a draw or claim)."""
        st = self.state
        groups = _by_seat(legal_actions(st, self.rs))
        if not groups and st.phase == "discard" and st.turn is not None and wall_empty_for(st, self.rs.play, st.turn):
            # the last drawer may not discard (a ruleset's rule, e.g. Pingxiang's last_draw_no_discard)
            # and did not win: the hand is an exhaustive draw
            self.emit(ev.ExhaustiveDraw())
            return
        if len(groups) != 1:
            raise SimulationError(f"{self.game_id}: expected one seat to act in phase {st.phase!r}, "
                                  f"got {[s for s, _ in groups]}")
        seat, acts = groups[0]
        a = self.bots[seat].choose(st, seat, acts)
        if a.is_win:
            self.take(a, self.state.hand_number or 0)
        else:
            self.emit(a.to_payload())

    def take(self, a: Action, number: int) -> None:
        if a.is_win:
            assert a.score is not None and a.context is not None
            seq = self.emit(a.to_payload())
            # the changes as the table settled them: a further winner on the same discard is
            # scored with the earlier wins on the table (Nanchang settles the hand's other
            # components with the first win only), which the action, listed before, could not
            rec = self.state.wins[-1]
            changes = rec.settlement.changes if rec.settlement is not None else \
                self.rs.settle_win(self.state, a.context, a.score).changes
            self.wins.append(SimulatedWin(seq, number, a.seat, a, a.score.points,
                                          reported_fans(a.score.explained), changes))
        else:
            self.emit(a.to_payload())

    def draw(self, walls: _Walls, seat: int,
             source: Literal["wall", "kong_replacement", "flower_replacement"]) -> None:
        (tile,) = walls.take(seat, 1, replacement=source != "wall", state=self.state)
        self.emit(ev.TileDrawn(seat=seat, tile=tile, source=source))


def _by_seat(actions: Sequence[Action]) -> list[tuple[int, list[Action]]]:
    out: list[tuple[int, list[Action]]] = []
    for a in actions:
        if out and out[-1][0] == a.seat:
            out[-1][1].append(a)
        else:
            out.append((a.seat, [a]))
    return out


def simulate_game(config: SimulationConfig, game: int, ruleset: Ruleset | None = None) -> SimulatedGame:
    """Play game number ``game`` (0, 1 …) of the run ``config``. Raises
    :class:`replayer.findings.RulesetError` for an unknown ruleset or bad options,
    :class:`SimulationError` when the replayer refuses an event."""
    rs = ruleset or get_ruleset(config.ruleset, config.options)
    return _Game(config, rs, game).play()


def simulate(config: SimulationConfig, games: int, *, start: int = 0) -> Iterator[SimulatedGame]:
    """Games ``start`` … ``start + games − 1`` of the run ``config``, one at a time."""
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    rs = get_ruleset(config.ruleset, config.options)
    for g in range(start, start + games):
        yield simulate_game(config, g, rs)
