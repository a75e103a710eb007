"""The test suite: a package, so that every module imports the shared helpers one way (`from tests.helpers ...`)."""
