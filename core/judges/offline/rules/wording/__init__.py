"""Rules on wording: negation, hedging, names and the source a claim names."""
