"""Rulings as data: scenario files per game and the runner that plays them."""
