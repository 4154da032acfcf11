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
        "server.account.unsaved": "The account could not be saved, so nothing changed; try again",
        "server.account.csrf": (
            "This request needs your session's CSRF token in the X-CSRF-Token header; "
            "reload the page and try again"
        ),
        "server.account.logged_out": (
            "You are not logged in (or your session has ended); log in again"
        ),
        "server.account.address_locked": (
            "Too many refused log-ins from your address; "
            "try again in {minutes} {minutes:minute|minutes}"
        ),
        "server.account.name_locked": (
            "Too many refused log-ins for this user name; "
            "try again in {minutes} {minutes:minute|minutes}"
        ),
        "server.account.wrong": "The user name or the password is wrong",
        "server.account.signups": (
            "Too many accounts were made from your address; "
            "try again in {minutes} {minutes:minute|minutes}"
        ),
        "server.account.taken": (
            "The user name {user!r} is taken (names are compared without case); choose another"
        ),
        "server.account.password_wrong": "The current password is wrong, so it was not changed",
        "server.account.name_length": "A user name is {min} to {max} {max:character|characters} long",
        "server.account.name_control": (
            "A user name may not hold control characters (such as NUL)"
        ),
        "server.account.name_chars": (
            "A user name may hold only letters, digits and the signs _ - ."
        ),
        "server.account.name_letter": "A user name needs at least one letter or digit",
        "server.account.name_form": (
            "A user name may not hold this kind of character (such as a space, a symbol or a "
            "compatibility form); choose another"
        ),
        "server.account.lookalike": (
            "The user name {user!r} looks like the name of the player {other!r}; choose another"
        ),
        "server.account.password_length": "A password is {min} to {max} {max:character|characters} long",
        "server.account.password_control": (
            "A password may not hold control characters (such as NUL)"
        ),
        "server.account.no_seat": "Your account holds no seat in this game",
        # players' names at a table
        "server.name.control": "A name may not hold control characters (such as NUL or newlines)",
        "server.name.blank": "A name needs a visible character",
        # tables, seats and invites
        "server.table.not_found": "There is no game with this id",
        "server.table.unsaved": "The game could not be saved, so nothing changed; try again",
        "server.table.players": "This game needs one seat per player ({players}), not {seats}",
        "server.table.game_unavailable": "This server cannot host {game} yet",
        "server.table.bot_unavailable": "The bot {bot!r} is not installed on this server yet",
        "server.table.too_many": (
            "You already have {n} unfinished {n:game|games}; finish one first"
        ),
        "server.table.over": "This game is over",
        "server.table.no_open_seat": "This game has no open seat to join",
        "server.table.stale": "The game has moved on to version {version}; reload and try again",
        "server.table.past_hidden": "Past positions are shown once the game is over",
        "server.table.move_range": "The move must be a whole number from 0 to {max}",
        "server.seat.bearer": 'The Authorization header must be "Bearer <seat token>"',
        "server.seat.no_seat": "This token does not open any seat of this game",
        "server.seat.invite_spent": (
            "This invite link was already claimed by another player, so it no longer opens the "
            "seat; you can watch the game instead"
        ),
        "server.seat.other_account": "This seat belongs to another account",
        "server.seat.taken": "This seat already has a player",
        "server.seat.needs_name": "This seat has no name yet: send your name to claim it",
        "server.seat.spectator": "Spectators cannot act; open the game with a seat's token",
        "server.seat.not_turn": "It is not your turn",
        "server.seat.left": "You left this game; a bot plays your seat for the rest of it",
        "server.seat.timed_out": (
            "Your clock ran out; a bot plays your seat for the rest of the game"
        ),
        # clocks
        "server.clock.days": "A correspondence clock gives 1, 2 or 3 days per turn",
        "server.clock.no_base": "A real-time clock needs its base time in seconds",
        "server.clock.base_range": (
            "A real-time clock's base time must be from {min} to {max} {max:second|seconds}"
        ),
        "server.clock.increment_range": (
            "A real-time clock's increment must be from 0 to {max} {max:second|seconds}"
        ),
        # hints
        "server.hint.spectator": "A hint is for a player: send your seat token",
        "server.hint.over": "The game is over: there is nothing left to suggest",
        "server.hint.not_turn": "It is not your turn, so there is nothing to suggest yet",
        "server.hint.pending": "Your last hint is still being worked out; wait for it first",
        "server.hint.busy": "The server is busy working out other hints; try again shortly",
        "server.hint.slow": "The hint took too long to work out; try again shortly",
        "server.hint.failed": "The hint could not be worked out; try again shortly",
        # chat, rematch, leaving
        "server.chat.spectator": "Spectators read the table chat but cannot write in it",
        "server.chat.too_fast": "You are sending chat messages too fast; wait a few seconds",
        "server.chat.unsaved": "The message could not be saved, so nothing changed; try again",
        "server.rematch.spectator": "Spectators cannot offer, accept or decline a rematch",
        "server.rematch.not_over": "A rematch is offered once the game is over",
        "server.rematch.bot_seat": (
            "A bot played your seat to the end, so the rematch is for the others"
        ),
        "server.rematch.accepted": "You have already accepted this rematch; its table is {table}",
        "server.rematch.none": "Nobody has offered a rematch of this game, so there is none to decline",
        "server.rematch.declined": "You declined this rematch, so you cannot accept it any more",
        "server.rematch.withdrawn": "The player who offered this rematch withdrew the offer",
        "server.rematch.taken_up": (
            "Another player has already accepted your rematch, so you cannot withdraw it now"
        ),
        "server.leave.spectator": "A spectator has no seat to leave",
        "server.leave.over": "The game is over: there is nothing to leave",
        "server.leave.bot": "A bot already plays this seat",
        "server.leave.too_late": (
            "The game ended or a bot took the seat over first; nothing changed"
        ),
        # ratings
        "server.rated.seats": "A rated table needs at least two seats: a rating compares players",
        "server.rated.bot": "The bot {bot!r} has no rating; rated tables seat {levels}",
        "server.rated.bot_twice": (
            "A rated table seats each bot level once: each level is one player"
        ),
        "server.rated.no_person": (
            "A rated table needs a person: bots are rated by glade arena --rate"
        ),
        "server.rated.guest_table": (
            "Log in to an account to make a rated table: guests play unrated"
        ),
        "server.rated.guest_seat": (
            "This is a rated table: log in to an account to take or play a seat"
        ),
        "server.unrated.address": (
            "This game will not change ratings: two of its players' accounts were used from one "
            "address recently"
        ),
        "server.unrated.device": (
            "This game will not change ratings: two of its players' accounts were used on one "
            "device recently"
        ),
        "server.unrated.same_account": (
            "This game will not change ratings: one account holds two of its seats"
        ),
        "server.unrated.pair_cap": (
            "This game will not change ratings: these players already played as many rated games "
            "against each other today as a day allows"
        ),
        "server.ratings.game": "There are ratings of {games} only",
        "server.ratings.no_player": "There is no player with this name",
        # reviews
        "server.review.not_over": "Only a finished game can be reviewed",
        "server.review.unstarted": "The review could not be started; try again shortly",
        "server.review.none": "This game has no review yet",
        "server.review.pending": "Your last review is still being worked out; wait for it first",
        "server.review.busy": (
            "The server is busy working out other reviews; try again in a few minutes"
        ),
        "server.review.decision_range": "The decision must be a whole number from 0 to {max}",
    },
)


def refuse(status: int, code: str, **params: Any) -> ApiError:
    """The answer ``status`` refusing with ``code``: its English sentence, code and params."""
    refusal = SERVER.refuse(code, **params)
    return ApiError(status, str(refusal), refusal.code, refusal.params)
