"""Issue 30, failure 5: ratings that cannot be farmed, on SQLite and PostgreSQL.

Two accounts made from one machine (one address) play a rated table: the table says before the
game that it will not count, and why; the game moves no rating and puts nobody on the board. Two
accounts on machines of their own count, up to a number of rated games a day against each
other. And every rating the API shows carries a familiar ``display`` number and whether it is
``provisional`` (issue 31).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from fastapi.testclient import TestClient
from server_support import client, db_url, make_settings, pg_url, play_random  # noqa: F401
from test_server_accounts import PASSWORD, cheap_hashes  # noqa: F401
from test_server_ratings import GAME, Player, wait_rated

from glade.server import create_app

__all__ = ["cheap_hashes", "client", "db_url", "pg_url"]


def rated_table(host: Player, guest: Player) -> tuple[str, list[str]]:
    gid, invites = host.create([{"kind": "human", "name": host.name}, {"kind": "human"}])
    return gid, [host.claim(gid, invites[0]), guest.claim(gid, invites[1])]


def counting(c: TestClient, gid: str) -> dict[str, Any]:
    found: dict[str, Any] = c.get(f"/api/games/{gid}/ratings").json()
    return {k: found[k] for k in ("rated", "counts", "reason", "decided")}


def test_two_accounts_of_one_machine_never_rate_each_other(client: TestClient) -> None:  # noqa: F811
    machine = "10.99.0.1"
    ann, bob = Player(client, "Ann", machine), Player(client, "Bob", machine)
    gid, tokens = rated_table(ann, bob)
    # said before the game: a rated table whose game will not count, and why
    assert counting(client, gid) == {
        "rated": True,
        "counts": False,
        "reason": "server.unrated.address",
        "decided": False,
    }
    note = client.get(f"/api/games/{gid}/ratings").json()["note"]
    assert note.startswith("This game will not change ratings")
    play_random(client, gid, tokens, random.Random(11))
    assert counting(client, gid)["decided"] is True
    assert counting(client, gid)["counts"] is False
    board = client.get(f"/api/ratings/{GAME}").json()["entries"]
    assert not {f"user:{ann.id}", f"user:{bob.id}"} & {e["identity"] for e in board}
    for who in (ann, bob):
        assert client.get(f"/api/profiles/{who.name}").json()["history"] == []


def test_accounts_of_one_device_never_rate_each_other(client: TestClient) -> None:  # noqa: F811
    """Two addresses but one browser (its device cookie): one logs out, the other logs in."""
    ann = Player(client, "Ann")
    device = ann.browser.cookies.get("glade_device")
    assert device
    bob = Player(client, "Bob")
    bob.browser.cookies.set("glade_device", device)  # bob's account, used on ann's device
    r = bob.browser.post("/api/account/login", json={"name": bob.name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    bob.csrf = r.json()["csrf"]
    gid, _ = rated_table(ann, bob)
    assert counting(client, gid)["reason"] == "server.unrated.device"


def test_a_pair_rates_a_few_games_a_day_and_the_table_says_when_it_is_over(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(make_settings(db_url, rated_pair_games_per_day=2))) as c:
        ann, bob = Player(c, "Ann"), Player(c, "Bob")  # machines of their own
        for n in range(2):
            gid, tokens = rated_table(ann, bob)
            assert counting(c, gid)["counts"] is True
            play_random(c, gid, tokens, random.Random(20 + n))
            wait_rated(c, gid, f"user:{ann.id}", n + 1)
            assert counting(c, gid) == {
                "rated": True,
                "counts": True,
                "reason": None,
                "decided": True,
            }
        gid, tokens = rated_table(ann, bob)
        assert counting(c, gid)["reason"] == "server.unrated.pair_cap"
        play_random(c, gid, tokens, random.Random(30))
        board = {e["identity"]: e for e in c.get(f"/api/ratings/{GAME}").json()["entries"]}
        assert board[f"user:{ann.id}"]["games"] == 2 and board[f"user:{bob.id}"]["games"] == 2
        # another opponent still counts
        cy = Player(c, "Cy")
        gid, _ = rated_table(ann, cy)
        assert counting(c, gid)["counts"] is True


def test_two_games_of_a_pair_starting_at_once_take_the_last_rated_slot_once(
    db_url: str,  # noqa: F811
) -> None:
    """The day's count is taken with the decision, in one conditional write: of two tables whose
    first moves come together when one rated game of the pair is left, one counts."""
    with TestClient(create_app(make_settings(db_url, rated_pair_games_per_day=1))) as c:
        ann, bob = Player(c, "Ann"), Player(c, "Bob")
        tables = [rated_table(ann, bob) for _ in range(2)]
        services = c.app.state.services  # type: ignore[attr-defined]

        async def both() -> list[str]:
            found = [await services.tables.get(gid) for gid, _ in tables]
            return list(await asyncio.gather(*(services.ratings.decide(t) for t in found)))

        decisions = c.portal.call(both)
        assert sorted(decisions) == ["rated", "server.unrated.pair_cap"]


def test_every_rating_shown_has_a_display_number_and_says_if_it_is_provisional(
    client: TestClient,  # noqa: F811
) -> None:
    ann = Player(client, "Ann")
    gid, invites = ann.create(
        [{"kind": "human", "name": ann.name}, {"kind": "bot", "bot": "random"}]
    )
    token = ann.claim(gid, invites[0])
    seats = client.get(f"/api/games/{gid}/ratings").json()["seats"]
    assert seats[0]["rating"]["display"] == 1500 and seats[0]["rating"]["provisional"] is True
    play_random(client, gid, [token, None], random.Random(3))
    entry = wait_rated(client, gid, f"user:{ann.id}", 1)
    assert entry["display"] == round(1500 + 30 * (entry["mu"] - 25))
    assert entry["provisional"] is True  # one game: sigma is still far above 4
    bots = client.get("/api/ratings/bots").json()["games"][GAME]
    assert all("display" in r and "provisional" in r for r in bots.values())
    # the table's ratings: the seat's change in displays too
    change = client.get(f"/api/games/{gid}/ratings").json()["seats"][0]["change"]
    assert (change["display_before"], change["display_after"]) == (1500, entry["display"])
    # the profile: its rating, its history and its games
    profile = client.get(f"/api/profiles/{ann.name}").json()
    rating = profile["ratings"][GAME]
    assert (rating["display"], rating["provisional"]) == (entry["display"], True)
    (step,) = profile["history"]
    assert (step["display_before"], step["display"]) == (1500, entry["display"])
    (played,) = profile["games"]
    assert played["rating"]["display_before"] == 1500
    assert played["rating"]["display_after"] == entry["display"]
    level = next(lv for lv in bots if lv != "random")  # a level that played no game here
    bot = client.get(f"/api/profiles/bot:{level}").json()
    assert bot["ratings"][GAME]["display"] == bots[level]["display"]
    assert bot["calibration"][GAME]["display"] == bots[level]["display"]
    prof = client.get(f"/api/profiles/{ann.name}").json()
    assert prof["ratings"][GAME]["display"] == entry["display"]
    assert prof["history"][0]["display"] == entry["display"]
