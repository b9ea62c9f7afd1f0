"""Attack campaign (docs/security.md): schema fuzzing, cross-language signing, client writers."""
