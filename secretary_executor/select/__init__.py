"""Selection algorithms: choose one proposal among many."""
