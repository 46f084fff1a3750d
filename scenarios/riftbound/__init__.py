"""Riftbound scenario files: the adapter (``adapter.py``) that plays them in
the reference engine and follows them in the model."""
