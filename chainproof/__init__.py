"""chainproof: trading-card-game rulebooks as logic, checked."""

__version__ = "0.1.0"
