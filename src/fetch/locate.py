# Where pinned wheels are, asked of the index pip is configured with,
# without downloading a wheel: run by cushim as `python3 -I`, in an empty
# working directory, with pip's own variables only.
#
# `pip install --dry-run --report` names a wheel's address, but it downloads
# the whole wheel first (pip reads the wheel's metadata, and its resolver
# prepares every wheel it picked before it reports, whatever the index
# offers); for cuBLAS that is about 440 MB to learn one URL. This asks pip's
# own finder instead: the options are parsed as `pip download` parses them,
# so pip's configuration files, its PIP_* variables, its index, extra
# indexes, find-links, proxies, certificates and credentials all apply, and
# the finder chooses among the files the index lists for the given Python
# and platforms exactly as pip's install would. Only the index's project
# pages move.
#
# Arguments: the report to write, then `--` and pip download's arguments
# (the `--platform`, `--python-version` and `--only-binary` options, then
# one `name==version` a wheel). The report has the shape of pip's
# `--report` (`install[i].metadata.name/version`,
# `install[i].download_info.url` and `.archive_info.hashes.sha256`) plus
# `cushim_index_bytes`: the body bytes of the index's answers that came over
# the network, as sent (compressed where the index compresses; pages served
# from pip's cache count nothing).
#
# Exit status 0 with the report written and `index-bytes N` on stdout; 3
# when pip's internals are not the ones this knows (the caller falls back
# to the dry run); 4 when a wheel was not found; 1 for any other failure.
# The reason is the last line on stderr.

import json
import sys


def fail(code, why):
    sys.stderr.write(why + "\n")
    sys.exit(code)


def main():
    if len(sys.argv) < 3 or sys.argv[2] != "--":
        fail(1, "usage: locate.py REPORT -- PIP-DOWNLOAD-ARGUMENTS...")
    report_path, pip_args = sys.argv[1], sys.argv[3:]
    try:
        from pip._internal.cli.cmdoptions import make_target_python
        from pip._internal.commands import create_command
        from pip._vendor.packaging.requirements import Requirement
    except Exception as e:  # any pip without these internals
        fail(3, f"this pip's internals are not the ones cushim knows ({type(e).__name__}: {e})")

    try:
        command = create_command("download", isolated=False)
        options, specs = command.parse_args(pip_args)
    except SystemExit as e:
        fail(1, f"pip refused the options (exit {e.code})")
    except (AttributeError, TypeError) as e:
        fail(3, f"this pip's internals are not the ones cushim knows ({type(e).__name__}: {e})")
    try:
        with command.main_context():
            installs, moved = locate(command, options, specs, make_target_python, Requirement)
    except (AttributeError, TypeError, AssertionError) as e:
        fail(3, f"this pip's internals are not the ones cushim knows ({type(e).__name__}: {e})")
    except Exception as e:  # the network, the index: pip's own words
        fail(1, f"{type(e).__name__}: {e}")
    report = {"version": "1", "install": installs, "cushim_index_bytes": moved}
    with open(report_path, "w") as f:
        json.dump(report, f)
    print(f"index-bytes {moved}")


def locate(command, options, specs, make_target_python, Requirement):
    """Each spec's wheel as a report entry, and the bytes the index sent."""
    session = command.get_default_session(options)
    finder = command._build_package_finder(
        options=options,
        session=session,
        target_python=make_target_python(options),
        ignore_requires_python=True,
    )
    # The body bytes of every answer that came over the network.
    counted = {"bytes": 0}

    def count(response, *args, **kwargs):
        if getattr(response, "from_cache", False):
            return
        length = response.headers.get("Content-Length")
        if length is not None and length.isdigit():
            counted["bytes"] += int(length)
        else:
            counted["bytes"] += len(response.content or b"")

    session.hooks.setdefault("response", []).append(count)
    installs = []
    for spec in specs:
        try:
            requirement = Requirement(spec)
        except Exception as e:
            fail(1, f"`{spec}` is not a requirement: {e}")
        found = finder.find_best_candidate(requirement.name, requirement.specifier)
        candidate = found.best_candidate
        if candidate is None:
            fail(4, f"the index lists no wheel of {spec} for these platforms")
        link = candidate.link
        hashes = {}
        if getattr(link, "hash_name", None) and getattr(link, "hash", None):
            hashes[link.hash_name] = link.hash
        hashes.update(getattr(link, "_hashes", None) or {})
        info = {"url": link.url_without_fragment}
        if "sha256" in hashes:
            info["archive_info"] = {"hashes": {"sha256": hashes["sha256"]}}
        installs.append(
            {
                "metadata": {"name": requirement.name, "version": str(candidate.version)},
                "download_info": info,
            }
        )
    return installs, counted["bytes"]


if __name__ == "__main__":
    main()
