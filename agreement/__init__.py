"""The agreement harness: an engine checked step by step against a game's model.

An adapter (``agreement/adapter.py``) shows an engine's states and actions as
observations in the model's vocabulary; a game's checker
(``agreement/wowtcg/``) maps them onto the model and checks every step for
soundness (the model allows it) and completeness (the engine offers every
choice the model allows).  The engine never sees the model.
"""
