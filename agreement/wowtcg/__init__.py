"""WoW TCG in the agreement harness: the observation format, the abstraction
onto the model, and the adapter of the built-in engine."""
