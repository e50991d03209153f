"""Player alias names (eventlog/players.py, PlayerAliased): a name is 1-200 characters with no
control character; the CLI refuses anything else in one line naming the argument."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from eventlog.events import PlayerAliased
from eventlog.players import PLAYERS_STREAM
from eventlog.store import open_store
from paipu.cli import app


@pytest.mark.parametrize("alias", ["Player\n0", "Player\t0", "P\x000", "x" * 201])
def test_payload_refuses_control_characters_and_long_names(alias):
    with pytest.raises(ValidationError):
        PlayerAliased(alias=alias, player="Player 0")
    with pytest.raises(ValidationError):
        PlayerAliased(alias="Player0", player=alias)
    assert PlayerAliased(alias="Player0", player="x" * 200).player == "x" * 200


@pytest.mark.parametrize(("args", "field"), [
    (["x" * 5000, "Player 0"], "alias"), (["Player0", "Player\n0"], "player"), (["Player\t0", "Player 0"], "alias"),
])
def test_cli_refuses_bad_names_in_one_line(tmp_path, args, field):
    open_store(tmp_path).close()
    res = CliRunner().invoke(app, ["players", "alias", *args, "--data", str(tmp_path)])
    assert res.exit_code == 2, res.output
    assert len(res.output.strip().splitlines()) == 1 and res.output.startswith(f"error: {field}: ")
    assert "x" * 300 not in res.output
    store = open_store(tmp_path)
    try:
        assert store.stream_head(PLAYERS_STREAM) is None  # nothing stored
    finally:
        store.close()
