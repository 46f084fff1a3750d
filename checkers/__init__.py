"""The methods that check a model: explicit search (state by state and over
arrays), bounded model checking, k-induction, Spacer, the portfolio that
runs them together, the rules diff, and the results they give.  They read
``model/`` and ``properties/``; neither of those knows them."""
