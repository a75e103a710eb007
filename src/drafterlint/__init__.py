"""drafterlint: keeps a benchmark's drafter rules and its approved-drafter lists consistent."""

__version__ = "0.1.0"
