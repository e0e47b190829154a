"""The clients' I/O: pylon_sdk/_async is written by hand, pylon_sdk/_sync is generated from it by unasync
(packages/python/scripts/generate_sync.py)."""
