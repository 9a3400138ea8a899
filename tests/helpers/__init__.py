"""Helpers that test modules import (``from helpers.bad_input import ...``), under names of their own.

A ``conftest.py`` holds fixtures only: every folder's conftest is a module called ``conftest``, so a test
that imports from one gets whichever was loaded last when several folders are collected in one run.
"""
