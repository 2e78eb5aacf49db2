"""The registers' own queries, read for the home screen's "Needs attention" lists: one module
per desk (the counter, the inspector's, the treasurer's)."""
