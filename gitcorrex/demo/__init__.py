"""`git correx demo`: a guided run on a throwaway repository."""
