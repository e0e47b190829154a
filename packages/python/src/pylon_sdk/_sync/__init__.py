# Generated from pylon_sdk/_async/__init__.py by packages/python/scripts/generate_sync.py (unasync): do not edit.
# Edit the async source and run that script.
"""The clients' I/O: pylon_sdk/_async is written by hand, pylon_sdk/_sync is generated from it by unasync
(packages/python/scripts/generate_sync.py)."""
