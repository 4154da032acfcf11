"""The server's own refusal codes: accounts, seats and invites, clocks, chat, rematches, hints,
ratings and reviews (the engines' refusals come from the rules packages' catalogues).

Every answer other than success that a player can meet carries one of these codes and its params
beside the English sentence (``{"error", "code", "params"}``), so the page says it in the player's
language (``refusal.<code>`` in ``glade/web/i18n``); ``docs/refusals.md`` lists them with the rest.
"""

from __future__ import annotations

from typing import Any

from glade.core.errors import Catalogue

from .errors import ApiError

SERVER = Catalogue(
    "server",
    {
        # accounts and sessions
        "server.account.unsaved": "the account could not be saved, so nothing changed; try again",
        "server.account.csrf": (
            "this request needs your session's CSRF token in the X-CSRF-Token header; "
            "reload the page and try again"
        ),
        "server.account.logged_out": (
            "you are not logged in (or your session has ended); log in again"
        ),
        "server.account.address_locked": (
            "too many refused log-ins from your address; "
            "try again in {minutes} {minutes:minute|minutes}"
        ),
        "server.account.name_locked": (
            "too many refused log-ins for this user name; "
            "try again in {minutes} {minutes:minute|minutes}"
        ),
        "server.account.wrong": "the user name or the password is wrong",
        "server.account.signups": (
            "too many accounts were made from your address; "
            "try again in {minutes} {minutes:minute|minutes}"
        ),
        "server.account.taken": (
            "the user name {user!r} is taken (names are compared without case); choose another"
        ),
        "server.account.password_wrong": "the current password is wrong, so it was not changed",
        "server.account.name_length": "a user name is {min} to {max} {max:character|characters} long",
        "server.account.name_control": (
            "a user name may not hold control characters (such as NUL)"
        ),
        "server.account.name_chars": (
            "a user name may hold only letters, digits and the signs _ - ."
        ),
        "server.account.password_length": "a password is {min} to {max} {max:character|characters} long",
        "server.account.password_control": (
            "a password may not hold control characters (such as NUL)"
        ),
        "server.account.no_seat": "your account holds no seat in this game",
        # players' names at a table
        "server.name.control": "a name may not hold control characters (such as NUL or newlines)",
        "server.name.blank": "a name needs a visible character",
        # tables, seats and invites
        "server.table.not_found": "there is no game with this id",
        "server.table.unsaved": "the game could not be saved, so nothing changed; try again",
        "server.table.players": "this game needs one seat per player ({players}), not {seats}",
        "server.table.game_unavailable": "this server cannot host {game} yet",
        "server.table.bot_unavailable": "the bot {bot!r} is not installed on this server yet",
        "server.table.too_many": (
            "you already have {n} unfinished {n:game|games}; finish one first"
        ),
        "server.table.over": "this game is over",
        "server.table.no_open_seat": "this game has no open seat to join",
        "server.table.stale": "the game has moved on to version {version}; reload and try again",
        "server.table.past_hidden": "past positions are shown once the game is over",
        "server.table.move_range": "the move must be a whole number from 0 to {max}",
        "server.seat.bearer": 'the Authorization header must be "Bearer <seat token>"',
        "server.seat.no_seat": "this token does not open any seat of this game",
        "server.seat.invite_spent": (
            "this invite link was already claimed by another player, so it no longer opens the "
            "seat; you can watch the game instead"
        ),
        "server.seat.other_account": "this seat belongs to another account",
        "server.seat.taken": "this seat already has a player",
        "server.seat.needs_name": "this seat has no name yet: send your name to claim it",
        "server.seat.spectator": "spectators cannot act; open the game with a seat's token",
        "server.seat.not_turn": "it is not your turn",
        "server.seat.left": "you left this game; a bot plays your seat for the rest of it",
        "server.seat.timed_out": (
            "your clock ran out; a bot plays your seat for the rest of the game"
        ),
        # clocks
        "server.clock.days": "a correspondence clock gives 1, 2 or 3 days per turn",
        "server.clock.no_base": "a real-time clock needs its base time in seconds",
        "server.clock.base_range": (
            "a real-time clock's base time must be from {min} to {max} {max:second|seconds}"
        ),
        "server.clock.increment_range": (
            "a real-time clock's increment must be from 0 to {max} {max:second|seconds}"
        ),
        # hints
        "server.hint.spectator": "a hint is for a player: send your seat token",
        "server.hint.over": "the game is over: there is nothing left to suggest",
        "server.hint.not_turn": "it is not your turn, so there is nothing to suggest yet",
        "server.hint.pending": "your last hint is still being worked out; wait for it first",
        "server.hint.busy": "the server is busy working out other hints; try again shortly",
        "server.hint.slow": "the hint took too long to work out; try again shortly",
        "server.hint.failed": "the hint could not be worked out; try again shortly",
        # chat, rematch, leaving
        "server.chat.spectator": "spectators read the table chat but cannot write in it",
        "server.chat.too_fast": "you are sending chat messages too fast; wait a few seconds",
        "server.chat.unsaved": "the message could not be saved, so nothing changed; try again",
        "server.rematch.spectator": "spectators cannot offer or accept a rematch",
        "server.rematch.not_over": "a rematch is offered once the game is over",
        "server.rematch.bot_seat": (
            "a bot played your seat to the end, so the rematch is for the others"
        ),
        "server.rematch.accepted": "you have already accepted this rematch; its table is {table}",
        "server.leave.spectator": "a spectator has no seat to leave",
        "server.leave.over": "the game is over: there is nothing to leave",
        "server.leave.bot": "a bot already plays this seat",
        "server.leave.too_late": (
            "the game ended or a bot took the seat over first; nothing changed"
        ),
        # ratings
        "server.rated.seats": "a rated table needs at least two seats: a rating compares players",
        "server.rated.bot": "the bot {bot!r} has no rating; rated tables seat {levels}",
        "server.rated.bot_twice": (
            "a rated table seats each bot level once: each level is one player"
        ),
        "server.rated.no_person": (
            "a rated table needs a person: bots are rated by glade arena --rate"
        ),
        "server.rated.guest_table": (
            "log in to an account to make a rated table: guests play unrated"
        ),
        "server.rated.guest_seat": (
            "this is a rated table: log in to an account to take or play a seat"
        ),
        "server.ratings.game": "there are ratings of {games} only",
        "server.ratings.no_player": "there is no player with this name",
        # reviews
        "server.review.not_over": "only a finished game can be reviewed",
        "server.review.unstarted": "the review could not be started; try again shortly",
        "server.review.none": "this game has no review yet",
        "server.review.decision_range": "the decision must be a whole number from 0 to {max}",
    },
)


def refuse(status: int, code: str, **params: Any) -> ApiError:
    """The answer ``status`` refusing with ``code``: its English sentence, code and params."""
    refusal = SERVER.refuse(code, **params)
    return ApiError(status, str(refusal), refusal.code, refusal.params)
