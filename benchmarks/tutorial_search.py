"""Find the seeds of the guided first games and write their scripts (glade/learn/data).

    python benchmarks/tutorial_search.py harmonies [--first 1] [--seeds 200] [--write]
    python benchmarks/tutorial_search.py living-forest [--first 1] [--seeds 200] [--write]

A guided game must meet its lessons in its scripted part. Harmonies: a tree, a mountain that
scores, a field, a building that scores, a river that scores, an animal card taken and its cube
placed, within a few turns of the player. Living Forest: a draw stopped by the limit of three
solitary symbols, each of the five actions, and an end of round at which Onibi attacks the
player. For each seed the player's moves are planned toward those lessons (the planner may see
everything: it is choosing the script, not playing), the opponent is the greedy bot with the
script's seed; the first seed whose plan meets every lesson is written as the script, each step
with the lesson it teaches and the claims the tests check on replay.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import glade
from glade.bots import make_bot
from glade.core import Action

OUT = Path(__file__).resolve().parents[1] / "glade" / "learn" / "data"
SEAT, OPPONENT = 0, 1
CATEGORIES = ("trees", "mountains", "fields", "buildings", "water")


# ====================================================================== Harmonies
def h_breakdown(g: Any) -> dict[str, Any]:
    found: dict[str, Any] = g.breakdown(SEAT, explain=True)
    return found


def h_progress(g: Any, lessons: set[str]) -> float:
    """How far the board is toward the lessons not met yet (the planner's objective)."""
    b = h_breakdown(g)
    met = {c for c in CATEGORIES if b[c] > 0} | (lessons & {"card", "cube"})
    value = 100.0 * len(met)
    parts = b["parts"]
    if "mountains" not in met and any(p["category"] == "mountains" for p in parts):
        value += 30
    if "fields" not in met and any(p["category"] == "fields" for p in parts):
        value += 30
    if "water" not in met and any(p["what"] == "river" for p in parts):
        value += 30
    if "buildings" not in met:
        seen = [len(p["params"]["colors"]) for p in parts if p["category"] == "buildings"]
        value += 15 * max(seen, default=0) + (20 if seen else 0)
        stacks = g.view(SEAT)["boards"][SEAT]["stacks"]
        if not seen and any(s in (["gray"], ["brown"], ["red"]) for s in stacks.values()):
            value += 5
    if "trees" not in met and any(
        s == ["brown"] for s in g.view(SEAT)["boards"][SEAT]["stacks"].values()
    ):
        value += 10
    return value + 0.01 * b["total"]


def h_place_all(g: Any, order: tuple[str, ...], lessons: set[str]) -> tuple[float, list[Action]]:
    """Place the tokens of ``order`` one by one, each where the progress is best."""
    moves = []
    for colour in order:
        best: tuple[float, Action] | None = None
        for a in g.legal_actions(SEAT):
            if a.type != "place_token" or a["color"] != colour:
                continue
            h = g.copy()
            h.apply(SEAT, a)
            v = h_progress(h, lessons)
            if best is None or v > best[0]:
                best = (v, a)
        assert best is not None
        g.apply(SEAT, best[1])
        moves.append(best[1])
    return h_progress(g, lessons), moves


def h_turn(g: Any, lessons: set[str]) -> list[Action]:
    """The player's whole turn: the space and placements with the best progress, then a card
    and its cube when one can be placed at once."""
    best: tuple[float, list[Action]] | None = None
    for space, tokens in enumerate(g.view(SEAT)["central"]):
        take = Action("take_tokens", space=space)
        for order in sorted(set(itertools.permutations(tokens))):
            h = g.copy()
            h.apply(SEAT, take)
            value, moves = h_place_all(h, order, lessons)
            extra: list[Action] = []
            if "card" not in lessons:
                for a in h.legal_actions(SEAT):
                    if a.type != "take_card":
                        continue
                    k = h.copy()
                    k.apply(SEAT, a)
                    cubes = [c for c in k.legal_actions(SEAT) if c.type == "place_cube"]
                    if cubes:
                        extra = [a, cubes[0]]
                        value += 200
                        break
            if best is None or value > best[0]:
                best = (value, [take, *moves, *extra])
    assert best is not None
    return [*best[1], Action("end_turn")]


def view_claim(path: list[Any], value: Any) -> dict[str, Any]:
    """A claim the tests check on replay: ``view(seat)`` at ``path`` is ``value`` after the step."""
    return {"path": path, "value": value}


def _part_key(p: dict[str, Any]) -> tuple[Any, ...]:
    return (p["category"], p["what"], tuple(p["cells"]), p["points"])


def h_lesson(
    before: dict[str, Any], after: dict[str, Any], move: Action, first: set[str]
) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """The lesson of one placement (a ``why`` key), its params and its claims, from the parts."""
    colour = move["color"]
    cell = move["cell"]
    new = [p for p in after["parts"] if _part_key(p) not in {_part_key(q) for q in before["parts"]}]
    here = [p for p in new if cell in p["cells"]]
    params: dict[str, Any] = {"colour": colour}
    claims: list[dict[str, Any]] = []

    def claim(category: str) -> None:
        claims.append(view_claim(["boards", SEAT, "score", category], after[category]))

    if after["buildings"] > before["buildings"] and colour != "red":
        b = next(p for p in new if p["category"] == "buildings" and p["points"] > 0)
        params.update(points=b["points"], seen=len(b["params"]["colors"]))
        claim("buildings")
        return "building_score", params, claims
    if colour == "green":
        p = next(p for p in here if p["category"] == "trees")
        params.update(points=after["trees"], height=p["params"]["height"])
        claim("trees")
        key = (
            "tree_new"
            if "trees" not in first
            else "tree_taller"
            if p["params"]["height"] > 1
            else "tree_more"
        )
        first.add("trees")
        return key, params, claims
    if colour == "brown":
        stack_height = 2 if any(p["what"] == "building" for p in here) else None
        if stack_height:
            return "place", params, claims
        return "trunk", params, claims
    if colour == "gray":
        p = next(p for p in here if p["category"] == "mountains")
        params.update(height=p["params"]["height"], points=after["mountains"])
        claim("mountains")
        if after["mountains"] == 0:
            return "mountain_lone", params, claims
        key = "mountain_pair" if "mountains" not in first else "mountain_more"
        first.add("mountains")
        return key, params, claims
    if colour == "yellow":
        params.update(points=after["fields"])
        claim("fields")
        if after["fields"] == before["fields"]:
            return ("field_lone" if after["fields"] == 0 else "field_same"), params, claims
        key = "field" if "fields" not in first else "field_more"
        first.add("fields")
        return key, params, claims
    if colour == "blue":
        rivers = [p for p in after["parts"] if p["what"] == "river"]
        best = max(rivers, key=lambda p: p["params"]["length"])
        params.update(length=best["params"]["length"], points=after["water"])
        claim("water")
        if after["water"] == 0:
            return "river_start", params, claims
        key = "river" if "water" not in first else "river_more"
        first.add("water")
        return key, params, claims
    # red
    b = [p for p in here if p["category"] == "buildings"]
    if not b:
        return "red_lone", params, claims
    params.update(points=b[0]["points"], seen=len(b[0]["params"]["colors"]))
    claim("buildings")
    if b[0]["points"]:
        first.add("buildings")
        return "building_score", params, claims
    return "building", params, claims


def search_harmonies(first: int, count: int, turns: int) -> dict[str, Any] | None:
    options = {"players": 2, "side": "A", "spirits": False}
    for seed in range(first, first + count):
        g = glade.new_game("harmonies", seed=seed, **options)
        bot = make_bot("greedy", "harmonies", seed=seed)
        entries: list[dict[str, Any]] = []
        lessons: set[str] = set()
        taught: set[str] = set()
        n = 0
        for turn in range(turns):
            moves = h_turn(g, lessons)
            for a in moves:
                before = h_breakdown(g)
                view = g.view(SEAT)
                g.apply(SEAT, a)
                after = h_breakdown(g)
                k = len([e for e in entries if "moves" in e])
                step: dict[str, Any] = {
                    "id": f"h{k + 1:02d}",
                    "say": a.type,
                    "moves": [a.to_json()],
                    "params": {},
                    "claims": [],
                }
                if a.type == "take_tokens":
                    step["params"] = {"tokens": view["central"][a["space"]]}
                    step["why"] = "take_first" if turn == 0 else "take"
                    step["highlight"] = {"central": [a["space"]]}
                elif a.type == "place_token":
                    why, params, claims = h_lesson(before, after, a, taught)
                    step.update(
                        why=why, params=params, claims=claims, highlight={"cells": [a["cell"]]}
                    )
                elif a.type == "take_card":
                    card = view["row"][a["slot"]]
                    step.update(why="card", params={"card": card}, highlight={"cards": [a["slot"]]})
                    lessons.add("card")
                elif a.type == "place_cube":
                    step.update(
                        why="cube",
                        params={"card": a["card"], "points": after["animals"]},
                        highlight={"cells": [a["cell"]]},
                        claims=[view_claim(["boards", SEAT, "score", "animals"], after["animals"])],
                    )
                    lessons.add("cube")
                else:
                    step.update(
                        why="end_turn_first" if turn == 0 else "end_turn",
                        highlight={"buttons": ["end_turn"]},
                    )
                entries.append(step)
            # the opponent's turn
            played = []
            while OPPONENT in g.to_act and not g.is_over:
                for a in bot.choose(g, OPPONENT):
                    g.apply(OPPONENT, a)
                    played.append([OPPONENT, a.to_json()])
            entries.append({"opponent": played})
            met = {c for c in CATEGORIES if h_breakdown(g)[c] > 0} | lessons
            n = turn + 1
            if met >= set(CATEGORIES) | {"card", "cube"}:
                return {"seed": seed, "options": options, "entries": entries, "turns": n}
        print(f"seed {seed}: {sorted(met)} after {n} turns", file=sys.stderr)
    return None


# ====================================================================== Living Forest
KINDS = ("fragment", "attract", "extinguish", "move", "plant")
ORDERS = [
    ("plant", "move", "attract", "extinguish", "fragment"),
    ("move", "plant", "extinguish", "attract", "fragment"),
    ("attract", "plant", "move", "fragment", "extinguish"),
    ("plant", "attract", "move", "fragment", "extinguish"),
    ("move", "attract", "plant", "fragment", "extinguish"),
]


def lf_sub_move(g: Any, legal: list[Action]) -> Action:
    """The planner's move inside an action: the dearest card or fire it can afford, the longest
    move, the first victory tile, the cheapest tree on the first space."""
    kinds = {a.type for a in legal}
    view = g.view(SEAT)
    if "pick_card" in kinds:
        cards = [a for a in legal if a.type == "pick_card"]
        return max(cards, key=lambda a: view["display"][a["level"] - 1][a["slot"]]["cost"])
    if "pick_fire" in kinds:
        fires = [a for a in legal if a.type == "pick_fire"]
        return max(fires, key=lambda a: view["centre_fires"][a["index"]])
    if "move" in kinds:
        return max((a for a in legal if a.type == "move"), key=lambda a: a["steps"])
    if "plant" in kinds:
        trees = view["tree_supply"]
        order = list(trees)
        return min(
            (a for a in legal if a.type == "plant"),
            key=lambda a: (order.index(a["tree"]), a["row"], a["column"]),
        )
    if "done" in kinds:
        return Action("done")
    return legal[0]


def search_living_forest(first: int, count: int, rounds: int = 4) -> dict[str, Any] | None:
    options = {"players": 2}
    for seed in range(first, first + count):
        for order in ORDERS:
            found = lf_try(seed, options, order, rounds)
            if found is not None:
                return found
        print(f"seed {seed}: no plan", file=sys.stderr)
    return None


def lf_try(
    seed: int, options: dict[str, Any], order: tuple[str, ...], rounds: int
) -> dict[str, Any] | None:
    g = glade.new_game("living-forest", seed=seed, **options)
    bot = make_bot("greedy", "living-forest", seed=seed)
    entries: list[dict[str, Any]] = []
    lessons: set[str] = set()
    n = 0

    def step(
        say: str,
        why: str,
        moves: list[Action],
        params: dict[str, Any] | None = None,
        claims: list[dict[str, Any]] | None = None,
        highlight: dict[str, Any] | None = None,
    ) -> None:
        nonlocal n
        n += 1
        entry: dict[str, Any] = {
            "id": f"lf{n:02d}",
            "say": say,
            "why": why,
            "params": params or {},
            "moves": [a.to_json() for a in moves],
            "claims": claims or [],
        }
        entry["highlight"] = highlight or {}
        entries.append(entry)

    def opponent() -> None:
        played = []
        while (
            OPPONENT in g.to_act
            and not g.is_over
            and any(a.type != "undo" for a in g.legal_actions(OPPONENT))
        ):
            if SEAT in g.to_act and g.view(None)["phase"] == "actions":
                break
            if g.view(None)["phase"] == "draw" and g.view(SEAT)["spirits"][SEAT]["drawing"]:
                break  # the player draws first, then the bot (its draws do not depend on it)
            for a in bot.choose(g, OPPONENT):
                if OPPONENT not in g.to_act:
                    break
                g.apply(OPPONENT, a)
                played.append([OPPONENT, a.to_json()])
        if played:
            entries.append({"opponent": played})

    pending_onibi: dict[str, Any] | None = None
    for rnd in range(1, rounds + 1):
        # the draw phase: the player draws, then the opponent
        opponent()
        draws: list[Action] = []
        limit_round = "limit" not in lessons
        while g.view(SEAT)["spirits"][SEAT]["drawing"]:
            sp = g.view(SEAT)["spirits"][SEAT]
            if not limit_round and sp["solitary"] >= 2:
                break
            g.apply(SEAT, Action("draw"))
            draws.append(Action("draw"))
        sp = g.view(SEAT)["spirits"][SEAT]
        before = onibi_claims(pending_onibi)
        if limit_round:
            if sp["solitary"] < 3:
                return None
            lessons.add("limit")
            why = "draw_limit"
            claims = [
                view_claim(["spirits", SEAT, "solitary"], sp["solitary"]),
                view_claim(["phase"], "actions"),
            ]
            step(
                "draw",
                "onibi" if pending_onibi else why,
                draws,
                {"n": len(draws), "limit": 3},
                claims,
                {"buttons": ["draw"]},
            )
        else:
            step(
                "draw",
                "onibi" if pending_onibi else "draw_safe",
                draws,
                {"n": len(draws), "solitary": sp["solitary"], **(pending_onibi or {})},
                [
                    view_claim(["spirits", SEAT, "solitary"], sp["solitary"]),
                    view_claim(["spirits", SEAT, "drawing"], True),
                ],
                {"buttons": ["draw"]},
            )
            g.apply(SEAT, Action("stop"))
            step(
                "stop",
                "stop",
                [Action("stop")],
                {"solitary": sp["solitary"]},
                [],
                {"buttons": ["stop"]},
            )
        if before:
            entries[-1 if limit_round else -2]["claims"] = (
                before + entries[-1 if limit_round else -2]["claims"]
            )
            entries[-1 if limit_round else -2]["params"].update(pending_onibi or {})
        pending_onibi = None
        # the action phase
        opponent()
        while g.view(None)["phase"] == "actions" and g.view(None)["current"] == SEAT:
            legal = g.legal_actions(SEAT)
            view = g.view(SEAT)
            if view["in_progress"] is None:
                choices = [a["action"] for a in legal if a.type == "choose_action"]
                todo = [k for k in order if k in choices and k not in lessons]
                pick = todo[0] if todo else next((k for k in order if k in choices), None)
                if pick is None:
                    g.apply(SEAT, Action("end_actions"))
                    step(
                        "end_actions",
                        "end_actions",
                        [Action("end_actions")],
                        {},
                        [],
                        {"buttons": ["end_actions"]},
                    )
                    continue
                el = {
                    "fragment": None,
                    "attract": "sun",
                    "extinguish": "water",
                    "move": "spiral",
                    "plant": "plant",
                }[pick]
                strength = view["spirits"][SEAT]["elements"][el] if el else 0
                a = Action("choose_action", action=pick)
                g.apply(SEAT, a)
                lessons.add(pick)
                after = g.view(SEAT)
                if pick == "fragment":
                    claims = [
                        view_claim(
                            ["spirits", SEAT, "fragments"], after["spirits"][SEAT]["fragments"]
                        )
                    ]
                else:
                    claims = [view_claim(["in_progress", "step"], pick)]
                step(
                    "choose_action",
                    f"choose_{pick}",
                    [a],
                    {"action": pick, "element": el or "", "strength": strength},
                    claims,
                    {"buttons": [f"action.{pick}"]},
                )
                continue
            a = lf_sub_move(g, legal)
            params: dict[str, Any] = {}
            hl: dict[str, Any] = {}
            if a.type == "pick_card":
                card = view["display"][a["level"] - 1][a["slot"]]
                params = {"card": card["name"], "cost": card["cost"], "level": card["level"]}
                hl = {"display": [[a["level"], a["slot"]]]}
            elif a.type == "pick_fire":
                params = {"value": view["centre_fires"][a["index"]]}
                hl = {"fires": [a["index"]]}
            elif a.type == "move":
                params = {"steps": a["steps"]}
            elif a.type == "plant":
                params = {
                    "cost": _tree_cost(a["tree"]),
                    "row": a["row"] + 1,
                    "column": a["column"] + 1,
                }
                hl = {"forest": [[a["row"], a["column"]]]}
            elif a.type == "steal":
                params = {"tile": a["tile"]}
            g.apply(SEAT, a)
            after = g.view(SEAT)["spirits"][SEAT]
            claims = []
            if a.type == "pick_card":
                claims = [
                    view_claim(["spirits", SEAT, "draw_stack_count"], after["draw_stack_count"])
                ]
            elif a.type == "pick_fire":
                claims = [view_claim(["spirits", SEAT, "fires"], after["fires"])]
            elif a.type == "move":
                claims = [view_claim(["spirits", SEAT, "rock"], after["rock"])]
            elif a.type == "plant":
                where = ["spirits", SEAT, "forest", a["row"], a["column"]]
                claims = [view_claim(where, a["tree"])]
            elif a.type == "steal":
                claims = [view_claim(["spirits", SEAT, "victory_tiles"], after["victory_tiles"])]
            bonus = view["in_progress"]["bonus"] if view["in_progress"] else False
            step(a.type, f"{a.type}_bonus" if bonus else a.type, [a], params, claims, hl)
        rnd_done = g.view(None)
        opponent()
        last = g.view(SEAT)["last_round"]
        if last and last["round"] == rnd:
            me = last["spirits"][SEAT]
            if me["attacked"] and me["varans"] and "onibi" not in lessons:
                lessons.add("onibi")
                pending_onibi = {
                    "power": last["onibi"]["power"],
                    "water": me["water"],
                    "varans": me["varans"],
                }
        del rnd_done
        if lessons >= {"limit", "onibi", *KINDS}:
            # the next round's first step tells what Onibi did
            opponent()
            if pending_onibi:
                draws = []
                while (
                    g.view(SEAT)["spirits"][SEAT]["drawing"]
                    and g.view(SEAT)["spirits"][SEAT]["solitary"] < 2
                ):
                    g.apply(SEAT, Action("draw"))
                    draws.append(Action("draw"))
                sp = g.view(SEAT)["spirits"][SEAT]
                step(
                    "draw",
                    "onibi",
                    draws,
                    {"n": len(draws), **pending_onibi},
                    onibi_claims(pending_onibi),
                    {"buttons": ["draw"]},
                )
            return {
                "seed": seed,
                "options": options,
                "entries": entries,
                "rounds": rnd,
                "order": order,
            }
        if g.is_over:
            return None
    return None


def onibi_claims(onibi: dict[str, Any] | None) -> list[dict[str, Any]]:
    """What the step after an end of round says Onibi did to the player (its ``last_round``)."""
    if not onibi:
        return []
    return [
        view_claim(["last_round", "onibi", "power"], onibi["power"]),
        view_claim(["last_round", "spirits", SEAT, "water"], onibi["water"]),
        view_claim(["last_round", "spirits", SEAT, "attacked"], True),
        view_claim(["last_round", "spirits", SEAT, "varans"], onibi["varans"]),
    ]


def _tree_cost(tree: str) -> int:
    from glade.living_forest.data import TREE_BY_ID, TREES

    return TREES.cost[TREE_BY_ID[tree]]


# ====================================================================== the script file
def write(game: str, found: dict[str, Any], lessons: str) -> Path:
    data = {
        "format": "glade-tutorial/1",
        "game": game,
        "seed": found["seed"],
        "options": found["options"],
        "seat": SEAT,
        "opponent": {"bot": "greedy", "seed": found["seed"]},
        "found_by": f"benchmarks/tutorial_search.py {game} ({datetime.date.today().isoformat()}): {lessons}",
        "entries": found["entries"],
    }
    path = OUT / f"tutorial-{game}.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=["harmonies", "living-forest"])
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--seeds", type=int, default=200)
    p.add_argument(
        "--turns", type=int, default=6, help="Harmonies: the player's scripted turns at most"
    )
    p.add_argument("--write", action="store_true", help="write the script into glade/learn/data")
    args = p.parse_args(argv)
    start = time.perf_counter()
    if args.game == "harmonies":
        found = search_harmonies(args.first, args.seeds, args.turns)
        lessons = "tree, mountain, field, building, river, animal card and cube"
    else:
        found = search_living_forest(args.first, args.seeds)
        lessons = "the solitary limit, the five actions, Onibi's attack on the player"
    took = time.perf_counter() - start
    if found is None:
        print(f"no seed in {args.first}..{args.first + args.seeds - 1} ({took:.1f} s)")
        return 1
    steps = sum(1 for e in found["entries"] if "moves" in e)
    print(f"seed {found['seed']}: {steps} steps ({took:.1f} s)")
    if args.write:
        print(write(args.game, found, lessons))
    return 0


if __name__ == "__main__":
    sys.exit(main())
