"""``python -m canon`` runs the command line."""

from .cli import main

main()
