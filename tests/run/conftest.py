"""The live tests' fixtures (a sandbox served over HTTP, `main` in this process), for
every test module here."""

from tests.run.test_live import in_process, world

__all__ = ["in_process", "world"]
