"""The fee engine: effective-dated schedules and the pricing of a permit."""
