"""The Harmonies terminal client in-process: whole games, typed moves, menus, solo, hints, saving."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import glade
from glade.cli import main
from glade.terminal.common import Numbering, Prompt, parse
from glade.terminal.harmonies import HarmoniesClient, play_harmonies, stack_label
from glade.terminal.i18n import Lang, detect


def run(
    seats: str,
    inputs: list[str],
    seed: int = 5,
    spirits: bool = False,
    lang: str = "en",
    save: str | None = None,
    width: int = 80,
) -> str:
    feed = iter(inputs)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, markup=False, no_color=True)
    args = argparse.Namespace(
        seats=seats, seed=seed, side="A", spirits=spirits, lang=lang, plain=True, save=save
    )
    mp = pytest.MonkeyPatch()
    mp.setattr("builtins.input", fake_input)
    try:
        assert play_harmonies(args, console) == 0
    finally:
        mp.undo()
    return out.getvalue()


def test_bots_play_a_whole_game_to_the_result() -> None:
    text = run("random,greedy", [])
    assert "Game over" in text and ("Winner: " in text or "Shared victory" in text)
    assert "Random bot: took space" in text and "Greedy bot: took" in text
    assert "Last round:" in text or "The game ends now:" in text
    for bad in ("{'", "['", "None", "player 1", "seat 0"):
        assert bad not in text


def test_markup_never_eats_tokens() -> None:
    client = _client(seed=4)
    text = "\n".join(c.label for c in client.choices(client.game, 0))
    for space, tokens in enumerate(client.game.view(0)["central"], start=1):
        assert f"take {space}: {client.tokens(tokens)}" in text


def test_human_moves_are_applied_undone_and_mistakes_explained() -> None:
    text = run("you,random", ["take 1", "1", "undo", "zzz", "99", "quit"], seed=4)
    assert "You: took space 1 [W r F] (blue, red, yellow)" in text
    assert "Undone." in text
    assert "'zzz' is not a move you can make now" in text and "There is no move 99" in text
    assert "Game left unfinished." in text


def test_typed_lines_may_hold_several_moves_and_bad_ones_change_nothing() -> None:
    client = _client(seed=4)
    actions = parse(client, 0, "take 2 place green 1,1 gray 1,2 brown 2,1")
    assert (
        isinstance(actions, list)
        and [a.type for a in actions] == ["take_tokens"] + ["place_token"] * 3
    )
    assert actions[1]["cell"] == "0,0" and actions[3]["cell"] == "1,0"
    before = client.game.to_json()
    assert "Refused" in str(parse(client, 0, "take 7"))
    assert "not a move" in str(parse(client, 0, "jump 1"))
    assert client.game.to_json() == before


def test_menu_numbers_stay_within_a_decision() -> None:
    client = _client(seed=4)
    g = client.game
    g.apply(0, {"type": "take_tokens", "space": 1})
    numbering = Numbering()
    first = numbering.assign(client.decision_key(g, 0), client.choices(g, 0))
    by_phrase = {c.phrase: first[_key(c)] for c in client.choices(g, 0)}
    g.apply(0, client.choices(g, 0)[0].action)
    second = numbering.assign(client.decision_key(g, 0), client.choices(g, 0))
    for c in client.choices(g, 0):
        if c.phrase in by_phrase:
            assert second[_key(c)] == by_phrase[c.phrase]


def test_solo_ends_with_score_and_suns_and_undo_says_why() -> None:
    text = run("greedy", [])
    assert "Greedy bot scored" in text and ("suns." in text or "sun." in text)
    assert "Winner" not in text
    colours = glade.new_game("harmonies", seed=3, players=1).view(0)["central"][0]
    moves = ["take 1"] + [f"place {c} {k},1" for k, c in enumerate(colours, start=1)]
    text = run("you", [*moves, "discard 1", "y", "undo", "quit"], seed=3)
    assert "Discard the" in text and "A discard cannot be taken back." in text
    assert "You: discarded card 1, the" in text
    assert "Cannot undo: there is nothing you can undo now." in text
    assert "A discard is final" in text


def test_solo_with_spirits_describes_the_spirits() -> None:
    text = run("you", ["quit"], spirits=True)
    assert "keep the" in text and "per " in text  # the spirit's scoring rule is written out


def test_cards_show_their_habitat_and_worth_now() -> None:
    client = _client(seed=4)
    assert client.track("crocodile", 0) == "4 9 15 =0 now"
    assert client.track("crocodile", 2) == "(4) (9) 15 =9 now"
    block = "\n".join(t.plain for t in client.card_block("crocodile", None, "1 ", 20))
    assert "{W }" in block and "[T3]" in block and "points 4 9 15" in block
    assert stack_label(["brown", "brown", "green"]) == "T3" and stack_label(["gray", "red"]) == "H"


def test_board_fits_80_columns_and_has_coordinates() -> None:
    text = run("you,greedy", ["quit"], seed=4)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "1,1[.  ]" in text and "5,5[.  ]" in text and "23 empty cells" in text


def test_korean_and_chinese_and_plurals() -> None:
    ko = run("you,greedy", ["take 2", "quit"], seed=4, lang="ko")
    assert "중앙판:" in ko and "나: 2번 칸 [M T t] (회색, 초록, 갈색) 가져감" in ko
    zh = run("you,greedy", ["take 2", "quit"], seed=4, lang="zh")
    assert "公共版图：" in zh and "你：拿取了第 2 格的圆片 [M T t]（灰色、绿色、棕色）" in zh
    en = Lang("en")
    assert en.t("h.cause.cells", name="X", n=1) == "X has only 1 empty cell left"
    assert en.t("h.cause.cells", name="X", n=2) == "X has only 2 empty cells left"
    assert detect(None, {"LANG": "ko_KR.UTF-8"}) == "ko"
    assert detect(None, {"LC_ALL": "zh_CN.UTF-8", "LANG": "ko_KR"}) == "zh"
    assert detect(None, {"LANG": "fr_FR.UTF-8"}) == "en" and detect("ZH") == "zh"


def test_every_language_has_every_key() -> None:
    root = Path(__file__).resolve().parents[2] / "glade" / "terminal" / "i18n"
    en = json.loads((root / "en.json").read_text("utf-8"))
    for code in ("ko", "zh"):
        other = json.loads((root / f"{code}.json").read_text("utf-8"))
        assert set(en) <= set(other), sorted(set(en) - set(other))


def test_refusals_are_translated_from_their_code() -> None:
    client = _client(seed=4, lang="ko")
    try:
        client.game.apply(0, {"type": "undo"})
    except glade.IllegalAction as exc:
        assert client.refusal(exc) == "지금 되돌릴 수 있는 것이 없습니다"
    else:
        raise AssertionError("undo at the start must be refused")


@pytest.mark.parametrize(
    ("lang", "first", "colour", "number"),
    [
        (
            "ko",
            "거절됨: 먼저 중앙판 한 칸의 토큰을 가져오십시오",
            "놓을 빨강 토큰이 없습니다",
            "7번 칸은 없습니다. 칸 번호는 1부터 5까지입니다",
        ),
        (
            "zh",
            "被拒绝：请先拿取公共版图上一格的圆片",
            "你没有可放置的红色圆片",
            "没有第 7 格：格的编号是 1 到 5",
        ),
    ],
)
def test_a_refused_typed_move_is_told_in_the_players_language(
    lang: str, first: str, colour: str, number: str
) -> None:
    """The page's refusal.<code> strings (glade/web/i18n), the colour param translated too."""
    client = _client(seed=4, lang=lang)
    assert str(parse(client, 0, "place red 1,1")).startswith(first)
    assert "take" not in str(parse(client, 0, "take 7")) and number in str(
        parse(client, 0, "take 7")
    )
    took = parse(client, 0, "take 2")
    assert isinstance(took, list)
    for action in took:
        client.game.apply(0, action)
    held = {a["color"] for a in client.game.legal_actions(0) if a.type == "place_token"}
    assert "red" not in held  # seed 4, space 2 holds no red token
    said = str(parse(client, 0, "place red 1,1"))
    assert colour in said and "red" not in said


def test_save_writes_a_loadable_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    text = run("you,greedy", [], seed=6, save=str(path))
    assert "Game left unfinished." in text and not path.exists()  # quitting saves nothing
    run("random,greedy", [], seed=6, save=str(path))
    data = json.loads(path.read_text("utf-8"))
    assert data["game"] == "harmonies" and data["seats"] == ["random", "greedy"]
    assert glade.load_game(data["state"]).result() == data["result"]


def test_completion_offers_the_moves_words() -> None:
    prompt = Prompt(ask=lambda p: "")
    prompt("> ", ["take 1", "take 2", "card 1"])
    assert [prompt._complete("ta", i) for i in range(3)] == ["take 1", "take 2", None]


def test_bad_seats_are_one_sentence_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "harmonies", "--seats", "you,wizard"]) == 2
    assert "unknown seat 'wizard'" in capsys.readouterr().err
    assert main(["play", "harmonies", "--seats", "you,random,random,random,random"]) == 2
    assert "1 to 4 seats" in capsys.readouterr().err
    assert main(["play", "harmonies", "--lang", "fr"]) == 2
    assert "unknown language" in capsys.readouterr().err


def test_bench_prints_a_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "harmonies", "--games", "5", "--players", "3", "--side", "B"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    report = json.loads(last)
    assert report["games"] == 5 and report["games_per_s"] > 0 and report["mean_score"] > 0
    assert report["options"] == {"players": 3, "side": "B", "spirits": False}


def _key(choice: object) -> str:
    from glade.terminal.common import action_key

    return action_key(choice.action)  # type: ignore[attr-defined]


def _client(seed: int, players: int = 2, lang: str = "en") -> HarmoniesClient:
    game = glade.new_game("harmonies", seed=seed, players=players, side="A", spirits=False)
    seats = ["you", "greedy", "random", "random"][:players]
    return HarmoniesClient(game, seats, Lang(lang), Console(file=io.StringIO(), width=80))


def test_names_come_from_the_glossary_when_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    from glade.terminal import i18n

    client = _client(seed=4, lang="ko")
    monkeypatch.setattr(i18n, "_glossary", lambda: {})
    assert client.card_name("frog") == "Frog" and client.card_name("owl_spirit") == "Owl's Spirit"
    monkeypatch.setattr(i18n, "_glossary", lambda: {"card.frog": {"en": "Frog", "ko": "개구리"}})
    assert client.card_name("frog") == "개구리"


def test_hints_are_written_in_the_words_that_play_them() -> None:
    from glade.terminal.common import hint_lines

    client = _client(seed=4)
    lines = hint_lines(client, 0)
    assert lines[0] == "Suggested, best first:" and lines[-1].startswith("Type the words")
    first = lines[1].split(". ", 1)[1].split("  (")[0]
    played = parse(client, 0, first)
    assert isinstance(played, list) and played, first


def test_the_console_prints_brackets_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    from glade.terminal.common import make_console

    for plain in (False, True):
        console = make_console(plain=plain, width=80)
        with console.capture() as cap:
            console.print("1) take 1 [t t M]  [bold]x[/bold] [W r F]")
        assert cap.get().strip() == "1) take 1 [t t M]  [bold]x[/bold] [W r F]"
    monkeypatch.setenv("NO_COLOR", "1")
    assert make_console().no_color
