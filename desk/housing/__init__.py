"""Housing codes (Hudson Ch. 140, Ch. 512): the standards as data and the occupancy limits."""
