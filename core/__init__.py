"""halgate: a hallucination regression gate with a review dashboard."""
