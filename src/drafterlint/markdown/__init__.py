"""The rules documents: parsed once, with exact source positions, GitHub slugs and sections."""
