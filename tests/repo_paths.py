"""Where the tests find the repository's files, wherever a test module sits under tests/."""

from pathlib import Path

__all__ = ["EXAMPLES", "FIXTURES", "ROOT", "SHARED_DATA", "TESTS"]

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = ROOT / "examples"
FIXTURES = TESTS / "fixtures"
SHARED_DATA = ROOT.parent / "shared" / "data"
