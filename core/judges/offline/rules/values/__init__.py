"""Rules on values: numbers, dates, times and the fields of structured records."""
