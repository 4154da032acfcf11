"""Issue 30, failure 6: user names by PRECIS (RFC 8265) and Unicode's confusables (UTS #39), on
SQLite and PostgreSQL; the migration that gives existing accounts their skeletons."""

from __future__ import annotations

import secrets
import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_support import client, db_url, make_settings, pg_url  # noqa: F401
from test_server_accounts import PASSWORD, Browser, cheap_hashes, login  # noqa: F401

from glade.server import create_app
from glade.server.features.accounts import HASHER
from glade.server.names import prepared, skeletons
from glade.server.storage import Storage
from glade.server.storage.migrations import MIGRATIONS

__all__ = ["cheap_hashes", "client", "db_url", "pg_url"]


def sign_up(c: TestClient, name: str) -> tuple[int, dict[str, object]]:
    r = Browser(c).post("/api/account/signup", json={"name": name, "password": PASSWORD})
    return r.status_code, r.json()


def test_look_alike_names_of_other_scripts_are_one_name(client: TestClient) -> None:  # noqa: F811
    tag = secrets.token_hex(2)  # the PostgreSQL database is shared by the module's tests
    latin = f"Zoe{tag}77"
    status, _ = sign_up(client, latin)
    assert status == 201
    for other in (
        f"Zое{tag}77",  # Cyrillic о and е
        f"Ζοe{tag}77",  # Greek capital zeta and small omicron
        f"ZOE{tag}77",  # the same name in capitals (also the same case-folded name)
        f"Ζ0e{tag}77",  # Greek zeta and a zero
    ):
        status, body = sign_up(client, other)
        assert status == 409, (other, body)
        assert body["code"] in ("server.account.lookalike", "server.account.taken"), body
        if body["code"] == "server.account.lookalike":
            assert body["params"] == {"user": other, "other": latin}
            assert str(body["error"]).startswith("The user name")
    # a lower-case look-alike (rn for m) is one name too, and a name of its own is not
    status, _ = sign_up(client, f"mario{tag}")
    assert status == 201
    status, body = sign_up(client, f"rnario{tag}")
    assert status == 409 and body["code"] == "server.account.lookalike"
    assert sign_up(client, f"Zoe{tag}78")[0] == 201
    assert sign_up(client, f"숲지기{tag}")[0] == 201  # any script stays welcome


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("...", "server.account.name_letter"),
        ("_-_", "server.account.name_letter"),
        ("\u0301\u0301\u0301", "server.account.name_letter"),  # combining marks alone
        ("ǅemal", "server.account.name_form"),  # a titlecase digraph PRECIS refuses
        ("ﬁne", "server.account.name_form"),  # a compatibility ligature
        ("henry\u2163", "server.account.name_form"),  # a Roman numeral (compatibility)
        ("with space", "server.account.name_chars"),
        ("♚♚♚", "server.account.name_chars"),
    ],
)
def test_names_without_a_letter_or_against_precis_are_refused_with_a_code(
    client: TestClient,  # noqa: F811
    name: str,
    code: str,
) -> None:
    status, body = sign_up(client, name)
    assert status == 422 and body["code"] == code, body
    assert str(body["error"])[:1].isupper()


def test_precis_maps_width_and_keeps_what_rfc_8265_allows() -> None:
    for ok in ("juliet", "Juliet", "fussball", "fußball", "πβπ", "숲지기"):
        assert prepared(ok) == ok
    assert prepared("ｊｕｌｉｅｔ") == "juliet"  # width mapping (RFC 8265 3.3.1)
    assert skeletons(prepared("Juliet")) & skeletons(prepared("juliet"))  # one name in any case


def test_existing_accounts_get_their_skeletons_and_look_alike_pairs_keep_working(
    tmp_path: Path,
) -> None:
    """An old database (schema 5) holding two look-alike accounts: the migration gives the older
    account the shared skeletons, both still log in, and a third look-alike is refused."""
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION)"
    )
    for number, steps in MIGRATIONS:
        if number > 5:
            continue
        for step in steps:
            assert isinstance(step, str)
            conn.execute(step)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (number, time.time()))
    password_hash = HASHER.hash(PASSWORD)
    accounts = (("u1", "Zoe3377"), ("u2", "Zое3377"), ("u3", "Kim4455"))
    for n, (uid, name) in enumerate(accounts):
        conn.execute(
            "INSERT INTO users (id, name, name_key, password_hash, created_at) VALUES (?,?,?,?,?)",
            (uid, name, name.casefold(), password_hash, 1000.0 + n),
        )
    conn.commit()
    conn.close()
    url = f"sqlite:///{path}"
    storage = Storage(url)
    try:
        rows = storage.db.read_now(
            lambda c: c.query("SELECT skeleton, user_id FROM name_skeletons ORDER BY skeleton")
        )
    finally:
        storage.close()
    owners = {str(s): str(u) for s, u in rows}
    # the older account holds every skeleton the two share (here, all of the younger's)
    assert skeletons("Zое3377") <= skeletons("Zoe3377")
    assert owners == {skeleton: "u1" for skeleton in skeletons("Zoe3377")} | {
        skeleton: "u3" for skeleton in skeletons("Kim4455")
    }
    with TestClient(create_app(make_settings(url))) as c:
        login(Browser(c), "Zoe3377")
        login(Browser(c), "Zое3377")
        assert sign_up(c, "Ζοe3377")[1]["code"] == "server.account.lookalike"
        assert sign_up(c, "Kіm4455")[1]["code"] == "server.account.lookalike"  # Cyrillic і
