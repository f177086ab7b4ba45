"""Rules of the business_listings pack (opt-in: policy ``rule_packs``)."""
