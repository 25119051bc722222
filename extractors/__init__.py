"""Everything that turns a URL, a paste, a file or a JSON endpoint into Evidence. Imports only `checks`."""
