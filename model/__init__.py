"""Rulebooks as state-machine graphs with Z3 constraints, and the checkers that explore them."""
