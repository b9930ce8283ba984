"""Stores behind one protocol (``base.VectorStore``): embedded (default) and Weaviate."""
