"""Plans: loading, step integrity (`validate`), authorization and the lock."""
