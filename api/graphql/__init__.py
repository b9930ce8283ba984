"""Strawberry GraphQL layer: thin types over ``api.core`` and resolvers calling the services."""
