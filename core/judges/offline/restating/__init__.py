"""What a claim changes in the source sentence it restates: the sentence found, a copy of it,
and one slot of it changed (a polarity, a name, an actor, a bound, a number, a strength)."""
