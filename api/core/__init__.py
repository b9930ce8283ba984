"""Pure domain logic: no I/O, no vendor imports. Every function here is a plain calculation."""
