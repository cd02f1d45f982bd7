"""Tokenising and normalisation that keep character offsets."""

from .tokenize import Token, tokenize

__all__ = ["Token", "tokenize"]
