"""Use cases: one function each. They take plain values, a unit of work, a clock and an actor."""
