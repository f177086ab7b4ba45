"""Which suite folders the dashboard may read (#12 item 7): under the configured roots only,
and the same words for every refusal, so an answer never tells which paths exist."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from halgate.errors import UsageError
from halgate.inputs import allowed_suite_folder, config_section, suite_roots

NOT_ALLOWED = "not an allowed suite folder"


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """root/ with a suite and a file in it, a second root, and a folder outside both, with
    links from inside the root to the outside and back in."""
    root, other, outside = tmp_path / "root", tmp_path / "other", tmp_path / "outside"
    for folder in (root / "suite", other / "more", outside / "secret"):
        folder.mkdir(parents=True)
    (root / "notes.txt").write_text("not a folder")
    (root / "out").symlink_to(outside / "secret", target_is_directory=True)
    (root / "in").symlink_to(root / "suite", target_is_directory=True)
    return {"root": root, "other": other, "outside": outside, "base": tmp_path}


def test_a_folder_under_a_root_is_served_as_its_real_path(tree):
    roots = [tree["root"], tree["other"]]
    assert allowed_suite_folder(tree["root"] / "suite", roots) == tree["root"] / "suite"
    assert allowed_suite_folder(" suite ", roots) == tree["root"] / "suite"  # relative, trimmed
    assert allowed_suite_folder("more", roots) == tree["other"] / "more"  # under the 2nd root
    assert allowed_suite_folder(tree["root"] / "in", roots) == tree["root"] / "suite"
    assert allowed_suite_folder(tree["root"], roots) == tree["root"]  # a root itself


@pytest.mark.parametrize(
    "typed",
    [
        "missing",  # under the root, but not there
        "notes.txt",  # a file
        "out",  # a link inside the root that leads out of it
        "../outside/secret",  # climbs out
        "{outside}/secret",  # absolute, exists, outside every root
        "{outside}/nothing",  # absolute, missing, outside
        "/",
        "",
        "   ",
        "bad\x00name",
    ],
)
def test_every_refusal_says_the_same_thing(tree, typed):
    typed = typed.format(outside=tree["outside"])
    with pytest.raises(UsageError) as caught:
        allowed_suite_folder(typed, [tree["root"]])
    message = str(caught.value)
    assert message.startswith(NOT_ALLOWED)
    assert str(tree["outside"]) not in message and "secret" not in message
    with pytest.raises(UsageError) as other:
        allowed_suite_folder("missing", [tree["root"]])
    assert str(other.value) == message


def test_a_root_reached_through_a_link_is_compared_by_its_real_path(tree):
    link = tree["base"] / "root-link"
    link.symlink_to(tree["root"], target_is_directory=True)
    assert allowed_suite_folder(link / "suite", [link]) == tree["root"] / "suite"
    with pytest.raises(UsageError, match=NOT_ALLOWED):
        allowed_suite_folder(link / "out", [link])


def test_roots_come_from_the_variable_then_halgate_toml_then_the_working_directory(tmp_path):
    config = tmp_path / "halgate.toml"
    assert suite_roots(env={}, paths=[config], cwd=tmp_path) == [tmp_path.resolve()]
    config.write_text('[dashboard]\nsuite_roots = ["suites", "/srv/x", "suites"]\n')
    assert suite_roots(env={}, paths=[config], cwd=tmp_path) == [
        (tmp_path / "suites").resolve(),
        Path("/srv/x").resolve(),
    ]
    env = {"HALGATE_SUITE_ROOTS": os.pathsep.join(["a", " ", str(tmp_path / "b")])}
    assert suite_roots(env=env, paths=[config], cwd=tmp_path) == [
        (tmp_path / "a").resolve(),
        (tmp_path / "b").resolve(),
    ]


@pytest.mark.parametrize(
    "toml, match",
    [
        ('[dashboard]\nsuite_roots = "suites"\n', "suite_roots must be a list"),
        ("[dashboard]\nsuite_roots = [1]\n", "suite_roots must be a list"),
        ('dashboard = "x"\n', r"\[dashboard\] must be a table"),
        ("[dashboard\n", "not valid TOML"),
    ],
)
def test_a_bad_suite_roots_setting_is_a_usage_error_naming_the_file(tmp_path, toml, match):
    config = tmp_path / "halgate.toml"
    config.write_text(toml)
    with pytest.raises(UsageError, match=match) as caught:
        suite_roots(env={}, paths=[config], cwd=tmp_path)
    assert str(config) in str(caught.value)


def test_the_first_config_file_found_is_the_whole_configuration(tmp_path):
    first, second = tmp_path / "halgate.toml", tmp_path / "config.toml"
    second.write_text("[review]\nrelease_managers = ['x']\n")
    assert config_section("review", [first, second]) == (second, {"release_managers": ["x"]})
    first.write_text("[llm]\nmodel = 'm'\n")
    assert config_section("review", [first, second]) == (first, {})
    assert config_section("review", [tmp_path / "none.toml"]) == (None, {})


def test_a_refusal_says_how_to_add_a_folder_to_the_roots(tree):
    with pytest.raises(UsageError) as caught:
        allowed_suite_folder(tree["outside"], [tree["root"]])
    message = str(caught.value)
    assert "HALGATE_SUITE_ROOTS" in message and "[dashboard] suite_roots" in message
    assert "halgate.toml" in message and "restart the dashboard" in message
