"""Shared code for the course's lab scripts: the run-record writer and JAX helpers.

Nothing here imports JAX at import time, so the record writer can be tested
(and the scripts' arguments read) on a machine without JAX.
"""
