"""What both terminal clients share: the console, seats and bots, typed moves, menus, hints, saving.

A client (``HarmoniesClient``, ``LivingForestClient``) turns the legal actions of a position into
:class:`Choice` objects: the words a player types (``take 3``, ``plant 7 at 1,3``), the menu text
and a menu group. :func:`run` is the game loop both share: bots move and every move is told in
words before it is applied; humans type words (with completion) or menu numbers, which stay the
same within one decision.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import random
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len, chop_cells, set_cell_size
from rich.console import Console
from rich.text import Text

from glade.core import Action, BadInput, Game, IllegalAction

from .i18n import Lang

# ------------------------------------------------------------------ console and seats


def make_console(plain: bool = False, width: int | None = None) -> Console:
    """A console that never reads markup from game text; ``plain`` (or NO_COLOR) drops colour."""
    no_color = plain or bool(os.environ.get("NO_COLOR"))
    return Console(
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
        no_color=no_color,
        color_system=None if no_color else "auto",
        width=width,
    )


def _bots() -> tuple[Callable[[], list[str]], Callable[..., Any]]:
    """The bot registry's ``(names, make)``: every spec a user may type, and the maker."""
    from glade.bots import bot_names, make_bot

    return bot_names, make_bot


def parse_seats(
    text: str | None, default: str, low: int, high: int, lang: Lang | None = None
) -> list[str]:
    """``you,greedy`` -> ["you", "greedy"], checked against the bot registry and player counts
    (a refusal in ``lang``)."""
    lang = lang or Lang("en")
    names = [s.strip().lower() for s in (text or default).split(",") if s.strip()]
    if not low <= len(names) <= high:
        raise BadInput(lang.t("seats.count", low=low, high=high, n=len(names)))
    specs = set(_bots()[0]())
    for name in names:
        if name != "you" and name not in specs:
            raise BadInput(lang.t("seats.unknown", name=name, bots=", ".join(sorted(specs))))
    return names


def make_bots(seats: list[str], game: str, seed: int) -> dict[int, Any]:
    make = _bots()[1]
    return {i: make(name, game, seed=seed + i) for i, name in enumerate(seats) if name != "you"}


def seat_names(seats: list[str], lang: Lang) -> list[str]:
    """What each seat is called on screen: "You", "Player 2", "Greedy bot", "Search bot (hard)"."""
    humans = [i for i, s in enumerate(seats) if s == "you"]
    out = []
    for i, spec in enumerate(seats):
        if spec == "you":
            out.append(lang.t("seat.you") if len(humans) == 1 else lang.t("seat.player", n=i + 1))
            continue
        base, _, level = spec.partition(":")
        if base == "mcts":
            level = level or "normal"
        name = lang.opt(f"bot.{base}", base)
        if level:
            name = lang.t("bot.withLevel", name=name, level=lang.opt(f"bot.level.{level}", level))
        if seats.count(spec) > 1:
            name = f"{name} {i + 1}"
        out.append(name)
    return out


def seed_or_random(seed: int | None) -> int:
    return seed if seed is not None else random.randrange(2**31)


# ------------------------------------------------------------------ screen cells
# A Korean or Chinese character takes two cells of the screen: widths are counted in cells
# (rich.cells), never in characters.


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` screen cells, cut at spaces (and inside a word
    longer than a line: Chinese has no spaces), the lines after the first indented."""
    width = max(width, cell_len(indent) + 2)
    lines: list[str] = []
    line = ""
    for piece in re.findall(r"\s*\S+", text):
        if cell_len(line + piece) <= width:
            line += piece
            continue
        if line.strip():
            lines.append(line.rstrip())
            line = indent
            piece = piece.lstrip()
        while cell_len(line + piece) > width:
            head = chop_cells(piece, width - cell_len(line))[0]
            lines.append(line + head)
            line, piece = indent, piece[len(head) :]
        line += piece
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` screen cells, with "…" where it was cut."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1).rstrip() + "…"


def cells_right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` cells (cut with "…" when longer)."""
    text = fit(text, width)
    return " " * (width - cell_len(text)) + text


def cells_left(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` cells (cut with "…" when longer)."""
    text = fit(text, width)
    return text + " " * (width - cell_len(text))


# ------------------------------------------------------------------ choices and words


@dataclass
class Choice:
    """One legal action as a player sees it."""

    action: Action
    phrase: str  # the canonical words: "place green 2,1"
    label: str  # the menu text: "green on 2,1 (tree, height 2)"
    group: str = ""  # compact menus print one line per group: "green:"
    short: str = ""  # the entry inside its group line: "2,1"
    aliases: tuple[str, ...] = ()


def normalize(text: str) -> str:
    """Lower case, single spaces, ``2, 1`` -> ``2,1``."""
    text = text.strip().lower().replace(";", " ")
    text = re.sub(r"\s*,\s*", ",", text)
    return re.sub(r"\s+", " ", text)


def action_key(action: Action) -> str:
    return json.dumps(action.to_json(), sort_keys=True)


class Numbering:
    """Menu numbers that stay the same within one decision (new options get the next numbers).

    Numbers follow a choice's words, so "fire 3" keeps its number after another fire is put out
    even though the engine's index of that fire changed.
    """

    def __init__(self) -> None:
        self.key: Any = None
        self.numbers: dict[str, int] = {}

    def assign(self, key: Any, choices: list[Choice]) -> dict[str, int]:
        if key != self.key:
            self.key = key
            self.numbers = {}
        for c in choices:
            if c.phrase not in self.numbers:
                self.numbers[c.phrase] = max(self.numbers.values(), default=0) + 1
        return {action_key(c.action): self.numbers[c.phrase] for c in choices}


def menu_lines(choices: list[Choice], numbers: dict[str, int], width: int) -> list[str]:
    """The numbered menu; grouped choices share a line (wrapped to ``width``)."""
    lines: list[str] = []
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    for c in sorted(choices, key=lambda c: numbers[action_key(c.action)]):
        n = numbers[action_key(c.action)]
        if c.group:
            if c.group not in groups:
                groups[c.group] = []
                order.append(c.group)
            groups[c.group].append(f"{n:>2}) {c.short or c.label}")
        else:
            order.append("")
            groups.setdefault("", []).append(f"{n:>3}) {c.label}")
    seen: set[str] = set()
    for g in order:
        if g in seen:
            continue
        seen.add(g)
        if g == "":
            lines.extend(groups[""])
            continue
        head = f"  {g} "
        line = head
        for entry in groups[g]:
            if cell_len(line) + cell_len(entry) + 2 > width and line != head:
                lines.append(line.rstrip())
                line = " " * cell_len(head)
            line += entry + "  "
        lines.append(line.rstrip())
    return lines


MENU_LINES = 6  # longer menus are printed on request ("menu"), typed words being quicker


# ------------------------------------------------------------------ the client interface


class Client(ABC):
    """What a game's terminal client provides to :func:`run`."""

    game_name = ""

    def __init__(self, game: Game, seats: list[str], lang: Lang, console: Console) -> None:
        self.game = game
        self.seats = seats
        self.lang = lang
        self.console = console
        self.names = seat_names(seats, lang)
        self.humans = [i for i, s in enumerate(seats) if s == "you"]

    # -- what each game defines
    @abstractmethod
    def choices(self, g: Game, seat: int) -> list[Choice]: ...

    def decision_key(self, g: Game, seat: int) -> Any:
        return (seat, tuple(sorted({a.type for a in g.legal_actions(seat)})))

    @abstractmethod
    def render(self, seat: int | None) -> list[Text]: ...

    @abstractmethod
    def prompt(self, seat: int) -> str: ...

    @abstractmethod
    def narrate(self, g: Game, seat: int, action: Action) -> str:
        """The move in words, told from the position before it is applied."""

    def complete(self, text: str, seat: int, action: Action) -> str:
        """The move's words once it is applied (a drawn card is known only then)."""
        return text

    def after(self, seat: int, action: Action, before: dict[str, Any]) -> list[str]:
        """What the move revealed or set off (new cards, end of round, last round)."""
        return []

    def consequence(self, seat: int, actions: list[Action]) -> str | None:
        """A sentence to confirm before these moves are made, or None when nothing needs saying."""
        return None

    def build(self, seat: int, words: str) -> dict[str, Any] | None:
        """An action from words that match no legal move, so the engine can say why it is refused."""
        return None

    def command(self, seat: int, words: str) -> bool:
        """Extra commands of one game (``pile``); True if handled."""
        return False

    @abstractmethod
    def end_screen(self) -> list[Text]: ...

    def help_lines(self) -> list[str]:
        return [self.lang.t("help.common")]

    # -- shared helpers
    def name(self, seat: int) -> str:
        return self.names[seat]

    def is_you(self, seat: int) -> bool:
        """Whether ``seat`` is called "You" (the one human of the game): sentences about it say
        "you have", not "You has"."""
        return self.seats[seat] == "you" and len(self.humans) == 1

    def thinking(self, seat: int) -> Any:
        """While a bot works out its move: a spinner saying so (on a terminal only)."""
        if not self.console.is_terminal:
            return contextlib.nullcontext()
        text = self.lang.t("bot.thinking", name=self.name(seat))
        return self.console.status(text, spinner="line")

    def undo_note(self, seat: int) -> str | None:
        """Why an undo was refused, in this game's words (after the engine's own sentence)."""
        return None

    def phrase(self, g: Game, seat: int, action: Action) -> str:
        """The words a player types for ``action`` in position ``g``: the offered move's own, or
        those of the offered move that does the same (two fires of one value are one move)."""
        choices = self.choices(g, seat)
        for c in choices:
            if c.action == action:
                return c.phrase
        said = self.narrate(g, seat, action)
        for c in choices:
            if self.narrate(g, seat, c.action) == said:
                return c.phrase
        return said

    def typed_words(self, g: Game, seat: int, actions: list[dict[str, Any]]) -> str:
        """A line of moves (their JSON) in the words a player types, from position ``g``:
        ``take 3 ; place blue 2,1``. Moves after the seat's turn ended are left out."""
        g = g.copy()
        words = []
        for a in actions:
            action = Action.from_json(a)
            if seat not in g.to_act:
                break
            words.append(self.phrase(g, seat, action))
            g.apply(seat, action)
        return " ; ".join(words)

    def say(self, text: str | Text = "") -> None:
        self.console.print(text)

    def refusal(self, exc: Exception) -> str:
        """The engine's sentence; in Korean or Chinese translated from its code and params."""
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", {}) or {})
        return self.lang.refusal(code, params, str(exc))


# ------------------------------------------------------------------ parsing typed moves


def parse(client: Client, seat: int, text: str) -> list[Action] | str:
    """The actions a line of words stands for (one or several moves), or a sentence saying why not."""
    words = normalize(text).split(" ")
    g = client.game.copy()
    actions: list[Action] = []
    while words:
        if seat not in g.to_act:
            return client.lang.t("parse.turnOver", words=" ".join(words))
        choices = client.choices(g, seat)
        found: Choice | None = None
        used = 0
        for n in range(len(words), 0, -1):
            phrase = " ".join(words[:n])
            for c in choices:
                if phrase == c.phrase or phrase in c.aliases:
                    found, used = c, n
                    break
            if found:
                break
        if found is None and actions and words == ["done"]:
            break  # the step already ended by itself (nothing left to afford)
        if found is None:
            rest = " ".join(words)
            # words that name a move we do not offer: let the engine say why it is refused
            tried = [rest] + ([normalize(text)] if actions else [])
            built = next((b for b in (client.build(seat, w) for w in tried) if b is not None), None)
            said = normalize(text).split(" ")
            done = " ".join(said[: len(said) - len(words)])
            if built is not None:
                try:
                    g.apply(seat, built)
                except (IllegalAction, BadInput) as exc:
                    why = client.refusal(exc)
                    if actions:  # the engine's reason, and that the moves before it wait too
                        return client.lang.t("parse.afterRefused", done=done, words=rest, why=why)
                    return client.lang.t("parse.refused", why=why)
                actions.append(Action.from_json(built))  # legal after all: take it
                words = []
                break
            if actions:
                return client.lang.t("parse.after", done=done, words=rest)
            first = words[0]
            near = [c.phrase for c in choices if c.phrase.split(" ")[0] == first][:6]
            if near:
                return client.lang.t("parse.near", words=rest, near=client.lang.join(near))
            return client.lang.t("parse.unknown", words=rest)
        g.apply(seat, found.action)
        actions.append(found.action)
        words = words[used:]
    return actions


# ------------------------------------------------------------------ the prompt


class Prompt:
    """``input()`` with whole-line completion of the current moves' words (GNU readline)."""

    def __init__(self, ask: Callable[[str], str] | None = None) -> None:
        self.words: list[str] = []
        self.ask = ask or input
        self._readline: Any = None
        if ask is None and sys.stdin.isatty():
            try:
                import readline
            except ImportError:  # no readline on this platform: typing still works
                return
            self._readline = readline
            readline.set_completer_delims("")
            readline.set_completer(self._complete)
            readline.parse_and_bind("tab: complete")

    def _complete(self, text: str, state: int) -> str | None:
        buffer = normalize(text)
        options = sorted({w for w in self.words if w.startswith(buffer)})
        return options[state] if state < len(options) else None

    def __call__(self, prompt: str, words: list[str] | None = None) -> str:
        self.words = words or []
        return self.ask(prompt)


# ------------------------------------------------------------------ hints and saving


def hint_lines(client: Client, seat: int) -> list[str]:
    lang = client.lang
    try:
        import glade

        hint = glade.hint
        from glade.bots import Budget
        from glade.bots.hint import hint_seconds
    except ImportError:
        return [lang.t("hint.unavailable")]
    try:
        # up to 40 samples, and never more than a few seconds at the prompt
        budget = Budget(iterations=40, seconds=max(3.0, hint_seconds(client.game.game_name)))
        ranked = hint(client.game, seat, budget)
    except BadInput as exc:
        return [lang.t("hint.none", why=client.refusal(exc))]
    if not ranked:
        return [lang.t("hint.none", why="")]
    lines = [lang.t("hint.title")]
    seen: set[str] = set()
    for item in ranked:
        words = client.typed_words(client.game, seat, item["actions"])
        if words in seen:  # the same move in other words (two equal fires): said once
            continue
        seen.add(words)
        outlook = []
        if item.get("score") is not None:
            outlook.append(lang.t("hint.score", n=round(item["score"])))
        if item.get("win") is not None:
            outlook.append(lang.t("hint.win", p=round(100 * item["win"])))
        tail = f"  ({', '.join(outlook)})" if outlook else ""
        lines.append(f"  {len(seen)}. {words}{tail}")
    lines.append(lang.t("hint.how"))
    return lines


def why_lines(client: Client, seat: int) -> list[str]:
    """``why``: the explained score of ``seat``'s board, by category: its total, then each part
    that scores (a tree of 3 on 2,3: +7), in the words the hints teach with. The parts are the one
    scorer's own (``parts_of``), so they sum to the score shown."""
    from glade.bots.teach import gains, parts_of
    from glade.learn.gains import category_name, gain_text

    lang = client.lang
    game = client.game_name
    cell = getattr(client, "cell", str)
    parts = parts_of(client.game, seat)
    categories = list(dict.fromkeys(p["category"] for p in parts))
    sep = "; " if lang.code != "zh" else "；"
    out = []
    total = 0
    for category in categories:
        # the category's parts as gained from an empty board, then its total line
        lines = gains(game, [], [p for p in parts if p["category"] == category])
        points = sum(int(p["points"]) for p in parts if p["category"] == category)
        if not points:
            continue
        total += points
        words = sep.join(gain_text(game, line, lang.code, cell) for line in lines[:-1])
        name = category_name(game, category, lang.code)
        colon = "：" if lang.code == "zh" else ": "
        out.append(f"  {name[:1].upper()}{name[1:]} {points}{colon}{words}")
    if not out:
        return [lang.t("why.none")]
    return [lang.t("why.title", n=total), *out]


def save_game(client: Client, path: str, seed: int, options: dict[str, Any]) -> str:
    """Write the finished game (``state.to_json()`` and who played) to ``path``; the path written."""
    import glade

    data = {
        "format": "glade-saved-game/1",
        "game": client.game_name,
        "saved_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "glade_version": glade.__version__,
        "seed": seed,
        "options": options,
        "seats": list(client.seats),
        "names": list(client.names),
        "result": client.game.result() if client.game.is_over else None,
        "state": client.game.to_json(),
    }
    path = os.path.expanduser(path)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)
    return path


# ------------------------------------------------------------------ the loop


@dataclass
class Session:
    """How a run is set up: the answers to questions, the save path, the seed (for the save)."""

    seed: int
    options: dict[str, Any]
    save: str | None = None
    ask: Callable[[str], str] | None = None
    numbering: dict[int, Numbering] = field(default_factory=dict)


def _apply(
    client: Client, seat: int, actions: list[Action], who: str, told: list[str] | None = None
) -> bool:
    """Apply moves one by one, telling each (into ``told`` when given, to be said later); False
    (and a sentence) if one is refused."""

    def tell(line: str) -> None:
        if told is None:
            client.say(line)
        else:
            told.append(line)

    for action in actions:
        if seat not in client.game.to_act:
            return True
        text = client.narrate(client.game, seat, action)
        before = client.game.view(None)
        try:
            client.game.apply(seat, action)
        except (IllegalAction, BadInput) as exc:
            client.say(client.lang.t("move.refused", why=client.refusal(exc)))
            return False
        tell("  " + client.lang.line(who, client.complete(text, seat, action)))
        for line in client.after(seat, action, before):
            tell(f"  {line}")
    return True


def _human(client: Client, seat: int, prompt: Prompt, session: Session) -> bool:
    """One decision of a human seat (one or several moves typed at once); False to quit."""
    lang = client.lang
    numbering = session.numbering.setdefault(seat, Numbering())
    show_menu: bool | None = None  # None: show it if it is short
    while True:
        if seat not in client.game.to_act or client.game.is_over:
            return True
        choices = client.choices(client.game, seat)
        numbers = numbering.assign(client.decision_key(client.game, seat), choices)
        by_number = {numbers[action_key(c.action)]: c for c in choices}
        lines = menu_lines(choices, numbers, client.console.width)
        if show_menu or (show_menu is None and len(lines) <= MENU_LINES):
            for line in lines:
                client.say(line)
        elif show_menu is None:
            client.say(lang.t("menu.long", n=len(choices), example=choices[0].phrase))
        show_menu = False
        who = client.name(seat) if len(client.humans) > 1 else ""
        client.say(Text(f"{who + ': ' if who else ''}{client.prompt(seat)}", style="bold"))
        words = [c.phrase for c in choices] + [a for c in choices for a in c.aliases]
        words += ["menu", "hint", "why", "undo", "board", "help", "quit"]
        try:
            text = prompt("> ", words)
        except EOFError:
            return False
        t = normalize(text)
        if t in ("q", "quit", "exit"):
            return False
        if t in ("", "menu", "m"):
            show_menu = True
            continue
        if t in ("?", "h", "help"):
            for line in client.help_lines():
                client.say(line)
            continue
        if t in ("b", "board") or t.startswith("board "):
            for drawn in client.render(seat if t in ("b", "board") else _board_seat(client, t)):
                client.say(drawn)
            continue
        if t == "hint":
            client.say(lang.t("hint.thinking"))
            for line in hint_lines(client, seat):
                client.say(line)
            continue
        if t == "why":
            for line in why_lines(client, seat):
                client.say(line)
            continue
        if t in ("u", "undo"):
            _undo(client, seat)
            return True
        if client.command(seat, t):
            continue
        if t.isdigit():
            if int(t) not in by_number:
                client.say(lang.t("parse.noNumber", n=t))
                continue
            actions: list[Action] | str = [by_number[int(t)].action]
        else:
            actions = parse(client, seat, t)
        if isinstance(actions, str):
            client.say(actions)
            continue
        note = client.consequence(seat, actions)
        if note:
            client.say(note)
            try:
                answer = normalize(prompt(lang.t("confirm.ask"), ["yes", "no"]))
            except EOFError:
                return False
            if answer not in ("", "y", "yes", lang.t("confirm.yes")):
                client.say(lang.t("confirm.cancelled"))
                continue
        if _apply(client, seat, actions, client.name(seat)):
            return True


def _board_seat(client: Client, t: str) -> int | None:
    arg = t.split(" ", 1)[1]
    if arg.isdigit() and 1 <= int(arg) <= len(client.seats):
        return int(arg) - 1
    return None


def _undo(client: Client, seat: int) -> None:
    lang = client.lang
    try:
        client.game.apply(seat, {"type": "undo"})
    except IllegalAction as exc:
        client.say(lang.t("undo.refused", why=client.refusal(exc)))
        note = client.undo_note(seat)
        if note:
            client.say(note)
        return
    client.say(lang.t("undo.done"))
    for line in client.render(seat):
        client.say(line)


def run(client: Client, session: Session) -> int:
    """Play to the end (or until a human quits); 0 either way.

    The bots' moves are told after the table is drawn for the next human, just above the prompt,
    so that they stay on a small screen (80x24) instead of scrolling away under the board; a
    spinner says a bot is thinking meanwhile."""
    lang = client.lang
    bots = make_bots(client.seats, client.game_name, session.seed)
    prompt = Prompt(session.ask)
    shown = -1
    watching = client.humans[0] if client.humans else None
    told: list[str] | None = [] if client.humans else None  # the bots' moves not said yet

    def say_told() -> None:
        if told:
            for line in told:
                client.say(line)
            told.clear()

    while not client.game.is_over:
        progressed = False
        for seat in list(client.game.to_act):
            if seat not in client.game.to_act or client.game.is_over:
                continue
            if not _has_move(client.game, seat):  # a stopped spirit that may only undo waits
                continue
            if seat in bots:
                with client.thinking(seat):
                    actions = bots[seat].choose(client.game, seat)
                _apply(client, seat, list(actions), client.name(seat), told)
                progressed = True
                continue
            length = len(client.game.log_json(None))
            if shown != length:
                for line in client.render(seat):
                    client.say(line)
                shown = length
            say_told()
            if not _human(client, seat, prompt, session):
                client.say(lang.t("session.left"))
                return 0
            progressed = True
            break
        if not progressed:  # nobody could move: never spin
            break
    for line in client.render(watching):
        client.say(line)
    say_told()
    for line in client.end_screen():
        client.say(line)
    _offer_save(client, session, prompt)
    return 0


def _has_move(game: Game, seat: int) -> bool:
    """True if ``seat`` has a move other than undo (Living Forest lists stopped spirits too)."""
    return any(a.type != "undo" for a in game.legal_actions(seat))


def _offer_save(client: Client, session: Session, prompt: Prompt) -> None:
    lang = client.lang
    path = session.save
    if path is None and client.humans:
        try:
            path = prompt(lang.t("save.ask")).strip()
        except EOFError:
            path = ""
    if not path:
        return
    try:
        written = save_game(client, path, session.seed, session.options)
    except OSError as exc:
        client.say(lang.t("save.failed", path=path, why=exc.strerror or str(exc)))
        return
    client.say(lang.t("save.done", path=written))


def side_by_side(blocks: list[list[Text]], width: int, gap: int = 1) -> list[Text]:
    """Blocks of lines printed next to each other, each cut to ``width`` cells, ``gap`` apart."""
    height = max((len(b) for b in blocks), default=0)
    out = []
    for y in range(height):
        line = Text()
        for b in blocks:
            t = b[y] if y < len(b) else Text("")
            if t.cell_len > width:  # a last resort (blocks wrap their lines): say it was cut
                t = t.copy()
                t.truncate(width, overflow="ellipsis")
            line.append_text(t)
            line.append(" " * (width - t.cell_len + gap))
        line.rstrip()
        out.append(line)
    return out
