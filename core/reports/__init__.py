"""Report writers: JSON (schema-validated), Markdown, JUnit, CSV and HTML."""
