"""Set up a game in the middle: the cards already in play, in hands and decks,
whose turn and which step. Rule tests and scenarios start from here instead
of playing a whole game up to the situation they are about."""

from __future__ import annotations

from .cards import Pool, default_pool
from .state import GameState

STEPS = ("ready_step", "draw_step", "action_phase", "end_phase")


def arrange(
    heroes: list[str],
    *,
    play: dict[int, list] | None = None,
    hands: dict[int, list[str]] | None = None,
    decks: dict[int, list[str]] | None = None,
    resources: dict[int, int] | None = None,
    exhausted_resources: dict[int, int] | None = None,
    graveyards: dict[int, list[str]] | None = None,
    turn_player: int = 0,
    step: str = "action_phase",
    turn: int = 3,
    pool: Pool | None = None,
    seed: int = 0,
    teams: list[int] | None = None,
) -> GameState:
    """A state whose `step` window has just opened on `turn_player`'s turn
    number `turn` (pre-priority checks done, so he holds priority unless a
    choice waits). `play[p]` lists card names, or mappings
    `{name, damage, exhausted, on, new}`: `on` names a card in play the
    attachment is attached to (a name, or `[player, name]`), `new` marks a card
    that joined its party this turn, `token: true` makes it the token of that
    name that a card of the pool creates (403.2), `owner` makes it another
    player's card that p put into play and controls (401.1, 401.2). `resources[p]` face-down resources are
    put in play ready, then `exhausted_resources[p]` exhausted, as if spent on
    a cost earlier this turn (402.4a); both made from Supplies for the Front. `graveyards[p]`
    are p's cards in his graveyard, oldest first (413.6a). Decks default to ten
    Ashen Recruits, so nobody is decked by accident. `teams` gives each seat's
    team for a team game (basic rules, multiplayer); by default none."""
    pool = pool if pool is not None else default_pool()
    if step not in STEPS:
        raise ValueError(f"step {step!r}: arrange opens one of {', '.join(STEPS)}")
    n = len(heroes)
    decks = decks or {}
    st = GameState(pool, heroes, [decks.get(p, ["Ashen Recruit"] * 10) for p in range(n)], seed, start=False, teams=teams)
    st.first_player = 0
    st.turn_player = turn_player
    st.turn_number = turn
    for p in st.players:
        p.last_turn_start = turn if p.index == turn_player else max(turn - 1, 1)
    for p, names in (hands or {}).items():
        for name in names:
            st.move(st._new_obj(pool[name], p, "hand"), "hand")
    for p in range(n):
        for exhausted in [False] * (resources or {}).get(p, 0) + [True] * (exhausted_resources or {}).get(p, 0):
            o = st._new_obj(pool["Supplies for the Front"], p, "hand")
            o.resource, o.face_up = True, False  # made a resource out of play, as the game does (410.1a)
            st.enter_play(o, p)
            o.exhausted, o.joined_turn = exhausted, 0
    for p, entries in (play or {}).items():
        for entry in entries:
            spec = {"name": entry} if isinstance(entry, str) else dict(entry)
            if spec.get("token"):
                # 403.2: a token one of the pool's powers creates, already in play.
                if spec["name"] not in pool.tokens:
                    raise KeyError(f"no card of the pool creates a token named {spec['name']!r}")
                o = st._new_obj(pool.tokens[spec["name"]], p, "hand", token=True)
            else:
                # 401.1, 401.2: p put it into play and controls it; it may be another player's card.
                o = st._new_obj(pool[spec["name"]], spec.get("owner", p), "hand")
            host = None
            if "on" in spec:
                owner, hname = spec["on"] if isinstance(spec["on"], list) else (None, spec["on"])
                host = st.find(hname, owner).id
            st.enter_play(o, p, attached_to=host)
            o.joined_turn = turn if spec.get("new") else 0
            o.damage = spec.get("damage", 0)
            o.exhausted = spec.get("exhausted", False)
    for p, names in (graveyards or {}).items():
        for name in names:
            st.move(st._new_obj(pool[name], p, "hand"), "graveyard")  # 413.6a
    st.waiting.clear()  # cards set in play were there already: none has just entered it
    st.push(("open_window", step))
    st._run()
    return st
