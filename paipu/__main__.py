"""``python -m paipu …`` runs the ``paipu`` command (the same app as the console script)."""

from paipu.cli import app

app(prog_name="paipu")
