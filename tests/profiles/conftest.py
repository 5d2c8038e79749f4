"""verify's committed project and a directory outside it, for the profile file's tests."""

from tests.verify.conftest import outside, project  # noqa: F401  (fixtures registered here)
