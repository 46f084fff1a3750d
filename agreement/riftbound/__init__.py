"""The Riftbound side of the agreement harness: the checker and the built-in engine's adapter."""
