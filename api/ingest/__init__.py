"""Reading tesis from files, validating them, and storing them with their embeddings."""
