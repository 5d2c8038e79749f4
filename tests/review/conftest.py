"""A committed project with the standard profile, as verify's tests build it: `show` reads
what `verify` recorded there."""

from tests.verify.conftest import project  # noqa: F401  (the fixture, registered here)
