"""Stop-word and synonym lists shipped with canon (plain UTF-8 text files beside this one)."""
