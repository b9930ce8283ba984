"""Text embedders behind one protocol, and a cache keyed by model + text hash."""
