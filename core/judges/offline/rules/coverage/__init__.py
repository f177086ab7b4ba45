"""Rules on how much of a claim its evidence covers (and the catch-all: too little)."""
