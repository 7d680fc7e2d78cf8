"""The Bot API methods the sandbox models, one module per subject, and their table."""
