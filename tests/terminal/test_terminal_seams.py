"""Issue 31's terminal points, each by what the player reads or types: widths in screen cells
(Korean and Chinese names and help lines whole, card tracks whole at 80 columns), hints in the
words that play them and each once, colours and animals typed in the screen's language, the
end-of-round summary when the round's last move changes the fires, refusals in the numbering
typed, a refused step of a line with its reason, Living Forest's undo reason, "you have"."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.cells import cell_len
from rich.console import Console

import glade
from glade.cli import main
from glade.core import Action
from glade.server import create_app
from glade.terminal.common import hint_lines, parse
from glade.terminal.harmonies import HarmoniesClient, _cards
from glade.terminal.i18n import Lang
from glade.terminal.living_forest import LivingForestClient
from tests.server.server_support import make_settings, play_random

from .pty_helpers import ROOT, Screen, clean, spawn

ARTIFACTS = ROOT / "tests" / "artifacts"

LANGS = ("en", "ko", "zh")


def console(width: int = 80, height: int = 24) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, no_color=True, markup=False)


def h_client(seed: int, lang: str = "en", players: int = 2, width: int = 80) -> HarmoniesClient:
    game = glade.new_game("harmonies", seed=seed, players=players, side="A", spirits=False)
    seats = ["you", "greedy", "random", "random"][:players]
    return HarmoniesClient(game, seats, Lang(lang), console(width))


def lf_position(
    pred: Callable[[Any, int], bool], lang: str = "en", width: int = 80, seeds: range = range(60)
) -> tuple[LivingForestClient, int]:
    """A Living Forest position reached by random play where ``pred(game, seat)`` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        g = glade.new_game("living-forest", seed=seed, players=2)
        for _ in range(3000):
            if g.is_over:
                break
            seat = g.to_act[0]
            if pred(g, seat):
                return LivingForestClient(g, ["you", "greedy"], Lang(lang), console(width)), seat
            g.apply(seat, rng.choice([a for a in g.legal_actions(seat) if a.type != "undo"]))
    raise AssertionError("no such position")


def step(g: Any, seat: int) -> str | None:
    got: str | None = (g.view(seat).get("in_progress") or {}).get("step")
    return got


# ------------------------------------------------------------------ widths in screen cells


@pytest.mark.parametrize("lang", LANGS)
def test_card_tracks_and_names_are_whole_at_80_columns(lang: str) -> None:
    """Every animal card's point track and name, as the card row draws them at 80 columns: all of
    it on the screen (wrapped), no line wider than the terminal."""
    client = h_client(4, lang)
    width = 15  # the card row's column at 80 columns: five cards
    for card, data in _cards().items():
        if data.get("rule"):
            continue
        block = client.card_block(card, None, "1 ", width)
        assert all(line.cell_len <= width for line in block), (card, block)
        text = " ".join(line.plain.strip() for line in block)
        assert client.card_name(card) in text.replace("  ", " ") or all(
            part in text for part in client.card_name(card).split()
        )
        track = re.findall(r"\d+", text.split(client.card_name(card), 1)[-1])
        assert [int(x) for x in track[: len(data["points"])]] == data["points"], (card, text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", [80, 160])
def test_living_forest_names_and_help_lines_are_whole(lang: str, width: int) -> None:
    """The display's names are not cut ("Praying man"), and a spirit's help line lists every card
    of it in Korean and Chinese too (widths were counted in characters: names dropped)."""
    client, seat = lf_position(
        lambda g, s: (
            g.view(s)["phase"] == "actions" and len(g.view(s)["spirits"][1]["help_line"]) >= 5
        ),
        lang,
        width,
    )
    v = client.game.view(seat)
    lines = client.render(seat)
    assert all(line.cell_len <= width for line in lines)
    shown = "\n".join(line.plain for line in lines)
    assert "…" not in shown  # nothing had to be cut
    for row in v["display"]:
        for card in row:
            if card is not None:
                assert client.card_name(card["name"]) in shown, card["name"]
    for s in (0, 1):
        block = client.spirit_block(v, s, seat, 38)
        assert all(line.cell_len <= 38 for line in block)
        joined = "".join(line.plain.strip() for line in block)
        for name in v["spirits"][s]["help_line"]:
            assert client.card_name(name).replace(" ", "") in joined.replace(" ", "")
    # every name of the game fits its column of the display, in every language
    from glade.living_forest.data import CARDS

    column = max(18, (width - 7) // 4) - 1
    for name in CARDS.names:
        assert cell_len(f"4 {client.card_name(name)}") <= column, name


# ------------------------------------------------------------------ typed words


def test_a_hint_offers_each_move_once_in_words_that_play_it() -> None:
    """Putting out one of several equal fires is one move: the hint says it once, as `fire 2`,
    and every suggestion typed back is played."""
    client, seat = lf_position(
        lambda g, s: (
            step(g, s) == "extinguish"
            and len(g.view(s)["centre_fires"]) > len(set(g.view(s)["centre_fires"]))
        )
    )
    lines = hint_lines(client, seat)
    suggestions = [re.sub(r"^\s*\d+\. ", "", x).split("  (")[0] for x in lines[1:-1]]
    assert suggestions and len(suggestions) == len(set(suggestions)), lines
    for words in suggestions:
        assert "put out" not in words
        got = parse(client, seat, words)
        assert isinstance(got, list) and got, (words, got)


@pytest.mark.parametrize(("lang", "colour"), [("ko", "초록"), ("zh", "绿色"), ("en", "green")])
def test_colour_words_of_the_screen_with_or_without_place(lang: str, colour: str) -> None:
    client = h_client(4, lang)
    took = parse(client, 0, "take 2")  # seed 4: space 2 holds gray, green, brown
    assert isinstance(took, list)
    for a in took:
        client.game.apply(0, a)
    cells = [a["cell"] for a in client.game.legal_actions(0) if a.type == "place_token"]
    cell = client.cell(cells[0])
    for words in (f"{colour} {cell}", f"place {colour} {cell}"):
        got = parse(client, 0, words)
        assert isinstance(got, list) and got[0]["color"] == "green", (words, got)


@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_animals_are_typed_by_the_names_on_screen(lang: str) -> None:
    client, seat = lf_position(lambda g, s: step(g, s) == "attract", lang)
    picks = [a for a in client.game.legal_actions(seat) if a.type == "pick_card"]
    a = picks[0]
    card = client.game.view(seat)["display"][a["level"] - 1][a["slot"]]
    shown = client.card_name(card["name"])
    assert re.search(r"[가-힣]|[\u4e00-\u9fff]", shown)
    got = parse(client, seat, f"attract {shown}")
    assert got == [a] or (isinstance(got, list) and got[0] == a), got
    assert parse(client, seat, f"attract {card['name']}") == got  # the English name still works
    # the menu and the hint write the screen's name
    assert any(c.phrase == f"attract {shown.lower()}" for c in client.choices(client.game, seat))
    h = h_client(4, lang)
    ids = [a["card"] for a in h.game.legal_actions(0) if a.type == "choose_spirit"] or ["frog"]
    assert all(" " not in h.card_word(i) or "_" not in h.card_word(i) for i in ids)


# ------------------------------------------------------------------ what the screen says


def test_the_round_summary_when_the_last_move_changes_the_fires() -> None:
    """The summary was worked out against the view before the round's last move: when that move
    put out a fire, Onibi's power and the fires added were wrong. It is the engine's record."""
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        g = glade.new_game("living-forest", seed=seed, players=2)
        client = LivingForestClient(g, ["greedy", "random"], Lang("en"), console())
        fires_before_last: list[int] | None = None
        while not g.is_over:
            seat = g.to_act[0]
            action = rng.choice([a for a in g.legal_actions(seat) if a.type != "undo"])
            before = g.view(None)
            g.apply(seat, action)
            after = g.view(None)
            if after["round"] != before["round"]:
                record = after["last_round"]
                lines = client.after(seat, action, before)
                start = lines.index(f"End of round {before['round']}:")
                said = " ".join(lines[start:])
                if record["onibi"]["fires"]:
                    assert (
                        f"fire power of {record['onibi']['power']}" in said or "Varans go" in said
                    )
                if record["fires_added"]:
                    assert "fires " + " ".join(map(str, record["fires_added"])) + " added" in said
                else:
                    assert "adds no fire" in said
                changed = (
                    fires_before_last is not None and fires_before_last != before["centre_fires"]
                )
                found += changed
            fires_before_last = before["centre_fires"]
        if found >= 3:
            break
    assert found >= 3, "no round ended on a move that changed the fires"


def test_refusals_use_the_numbers_typed() -> None:
    client = h_client(4)
    assert parse(client, 0, "take 9") == "Refused: there is no space 9: spaces are numbered 1 to 5."
    assert (
        parse(client, 0, "card 9") == "Refused: there is no card 9: the cards are numbered 1 to 5."
    )
    took = parse(client, 0, "take 3")  # seed 4: space 3 holds gray, green, brown: place one
    assert isinstance(took, list)
    for a in took:
        client.game.apply(0, a)
    client.game.apply(0, Action.from_json({"type": "place_token", "color": "green", "cell": "2,1"}))
    said = parse(client, 0, f"place brown {client.cell('2,1')}")
    assert isinstance(said, str) and f"(cell {client.cell('2,1')})" in said, said
    lf, seat = lf_position(lambda g, s: step(g, s) == "plant")
    forest = lf.game.view(seat)["spirits"][seat]["forest"]
    empty = [(r, c) for r in range(3) for c in range(5) if forest[r][c] is None]
    far = next(
        (r, c)
        for r, c in empty
        if all(
            forest[rr][cc] is None
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < 3 and 0 <= cc < 5
        )
    )
    tree = next(a["tree"] for a in lf.game.legal_actions(seat) if a.type == "plant")
    said = parse(lf, seat, f"plant {tree[1:].lower()} at {far[1] + 1},{far[0] + 1}")
    assert f"row {far[0] + 1}, column {far[1] + 1} does not touch" in str(said), said


def test_a_refused_step_in_a_line_gives_its_reason() -> None:
    client = h_client(4)
    took = parse(client, 0, "take 3")
    assert isinstance(took, list)
    for a in took:
        client.game.apply(0, a)
    legal = [a for a in client.game.legal_actions(0) if a.type == "place_token"]
    first = legal[0]
    line = f"place {first['color']} {client.cell(first['cell'])} blue 9,9"
    said = parse(client, 0, line)
    assert isinstance(said, str)
    assert said.startswith(
        f"After 'place {first['color']} {client.cell(first['cell'])}', 'blue 9,9'"
    )
    assert "is refused: " in said and said.endswith("Nothing was played.")


def test_living_forest_undo_speaks_of_turns_not_tokens() -> None:
    client, seat = lf_position(
        lambda g, s: g.view(s)["phase"] == "actions" and g.legal_actions(s)[0].type != "undo"
    )
    assert client.undo_note(seat) == (
        "Undo takes back only moves of the turn you are playing; your last move ended your turn"
        " (or the round), so it stands."
    )
    assert "token" not in Lang("en").t("lf.undoPassed")


def test_the_game_says_you_have_not_you_has() -> None:
    """A solo board nearly full: "The game ends now: you have only 1 empty cell left."."""
    for seed in range(200):
        rng = random.Random(seed)
        g = glade.new_game("harmonies", seed=seed, players=1, side="A", spirits=False)
        client = HarmoniesClient(g, ["you"], Lang("en"), console())
        while not g.is_over:
            acts = [a for a in g.legal_actions(0) if a.type != "undo"]
            places = [a for a in acts if a.type == "place_token"]
            action = rng.choice(places or acts)
            before = g.view(None)
            g.apply(0, action)
            said = client.after(0, action, before)
            ends = [x for x in said if x.startswith("The game ends now:")]
            if ends and "empty" in ends[0]:
                assert re.fullmatch(
                    r"The game ends now: you have only \d+ empty cells? left\.", ends[0]
                )
                return
    raise AssertionError("no solo game ended on a full board")


# ------------------------------------------------------------------ in a real terminal


def save_screen(name: str, screen: Any) -> None:
    """The screen as a player sees it, kept in tests/artifacts/ to be looked at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_text(screen.shown() + "\n", "utf-8")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (160, 48)])
def test_the_bots_moves_stay_on_screen_with_a_spinner(lang: str, cols: int, rows: int) -> None:
    """After the human's turn the bot plays: a spinner says it thinks, then its moves are told
    under the redrawn table, right above the prompt, so the 24 rows of a small terminal show them
    all (they used to scroll away under the board); no line is wider than the terminal."""
    child = spawn(
        "harmonies", "--seats", "you,greedy", "--seed", "5", "--lang", lang, cols=cols, rows=rows
    )
    screen = Screen(child, cols, rows)
    screen.expect(r"\n> ")
    save_screen(f"terminal-harmonies-{lang}-{cols}x{rows}.txt", screen)
    # the first turn worked out here, with the same seed: take space 1, place its three tokens
    mine = h_client(5, lang)
    words = ["take 1"]
    mine.game.apply(0, {"type": "take_tokens", "space": 0})
    for _ in range(3):
        first = next(c for c in mine.choices(mine.game, 0) if c.action.type == "place_token")
        words.append(first.phrase)
        mine.game.apply(0, first.action)
    screen.send(" ; ".join(words))
    screen.expect(r"\n> ")
    screen.send("end")
    screen.expect(r"\n> ")
    bot = {"en": "Greedy bot", "ko": "욕심 봇", "zh": "贪心机器人"}[lang]
    thinking = {
        "en": "Greedy bot is thinking",
        "ko": "생각하는 중: 욕심 봇",
        "zh": "贪心机器人 正在思考",
    }
    assert thinking[lang] in clean(screen.text)
    told = [x for x in clean(screen.text).splitlines() if x.strip().startswith(bot)]
    shown = screen.lines()
    turn = told[-6:]  # the bot's last turn: its take, three placements, a card or not, its end
    assert turn and all(x.strip() in "\n".join(y.strip() for y in shown) for x in turn), (
        turn,
        shown,
    )
    assert all(cell_len(x) <= cols for x in clean(screen.text).splitlines())
    save_screen(f"terminal-harmonies-{lang}-{cols}x{rows}-after-bot.txt", screen)
    child.sendline("quit")
    child.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (160, 48)])
def test_living_forest_screens_at_both_sizes(lang: str, cols: int, rows: int) -> None:
    """The Living Forest table in a real terminal: no line wider than it, the display's names
    whole, the bot's draws told above the prompt."""
    child = spawn(
        "living-forest",
        "--seats",
        "you,greedy",
        "--seed",
        "3",
        "--lang",
        lang,
        cols=cols,
        rows=rows,
    )
    screen = Screen(child, cols, rows)
    screen.expect(r"\n> ")
    for _ in range(2):
        screen.send("draw")
        screen.expect(r"\n> ")
    screen.send("stop")  # then the bot draws, and the actions begin
    screen.expect(r"\n> ")
    save_screen(f"terminal-living-forest-{lang}-{cols}x{rows}.txt", screen)
    text = clean(screen.text)
    assert all(cell_len(x) <= cols for x in text.splitlines())
    assert not [x for x in text.splitlines() if "…" in x and not re.search("think|생각|思考", x)]
    g = glade.new_game("living-forest", seed=3, players=2)
    client = LivingForestClient(g, ["you", "greedy"], Lang(lang), console(cols))
    for row in g.view(0)["display"]:
        for card in row:
            assert client.card_name(card["name"]) in text
    bot = {"en": "Greedy bot", "ko": "욕심 봇", "zh": "贪心机器人"}[lang]
    drew = [x.strip() for x in text.splitlines() if x.strip().startswith(bot)]
    assert drew and drew[-1] in "\n".join(y.strip() for y in screen.lines())
    child.sendline("quit")
    child.close()


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Ann (Greedy bot plays for them) · left the game"),
        ("ko", "Ann (대신 플레이: 욕심 봇) · 게임을 나감"),
        ("zh", "Ann（由贪心机器人代打） · 已离开"),
    ],
)
def test_glade_review_of_a_server_game_names_a_seat_a_bot_took_over(
    lang: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server's game in which Ann left: ``glade review --server`` keeps her name for her seat
    and says which bot played it for her and why (the server's ``taken_over`` seat; issue 31).
    The log comes from a real server; the review reads it as a file URL."""
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 'g.sqlite3'}"))) as c:
        made = c.post(
            "/api/games",
            json={
                "game": "harmonies",
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}],
            },
        )
        assert made.status_code == 201, made.text
        gid = made.json()["id"]
        tokens = [s["token"] for s in made.json()["seats"]]
        left = c.post(f"/api/games/{gid}/leave", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert left.status_code == 200, left.text
        play_random(c, gid, [None, tokens[1]], random.Random(4))
        log = c.get(f"/api/games/{gid}/log").json()
    assert log["over"] and log["seats"][0]["taken_over"] and log["seats"][0]["name"] == "Ann"
    where = tmp_path / "api" / "games" / gid
    where.mkdir(parents=True)
    (where / "log").write_text(json.dumps(log), encoding="utf-8")
    args = ["review", "--server", tmp_path.as_uri(), "--id", gid, "--samples", "1"]
    assert main([*args, "--lang", lang]) == 0
    printed = capsys.readouterr().out
    assert line in printed
    # the score line keeps her name for the seat
    assert re.search(r"Ann \d+", printed)
