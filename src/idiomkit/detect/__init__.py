"""Candidate detection: lexicon matchers behind one registry."""

from .base import ALIASES, Matcher, available_methods, create_matcher, register_matcher

__all__ = ["ALIASES", "Matcher", "available_methods", "create_matcher", "register_matcher"]
