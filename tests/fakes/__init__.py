"""In-process fakes of the platform APIs, served on 127.0.0.1 for tests."""
