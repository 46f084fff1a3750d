"""Heroes of Ancients: the agreement checker and the built-in engine's adapter."""
