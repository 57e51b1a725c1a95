"""Paths shared by the tests: the repository's game files."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def game_path(relative: str) -> str:
    return str(ROOT / relative)


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT
