"""The front server's configuration: ``deploy/nginx.conf`` with its ``${NAME}`` places filled in,
written into a folder that becomes nginx's prefix (docs/operations.md, "The front server").

``python -m pente_site.front FOLDER [--listen 80] [--web 127.0.0.1:8000] ...`` writes
``FOLDER/nginx.conf`` and the folders nginx writes in, and prints the command that starts nginx.
The places are upper-case names only, so nginx's own variables (``$host``) are left alone.
"""

from __future__ import annotations

import argparse
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

#: The configuration template, in the repository.
TEMPLATE = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf"
#: A place of the template: ``${NAME}``, the name in capitals.
PLACE = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}")
#: Where Debian puts nginx (outside the PATH of an ordinary user).
DEBIAN_NGINX = Path("/usr/sbin/nginx")


@dataclass(frozen=True, kw_only=True)
class Front:
    """What the template leaves open: where nginx listens, where gunicorn and uvicorn are,
    the folder of the collected static files, and the user its workers run as."""

    listen: str = "80"
    server_name: str = "_"
    web: str = "127.0.0.1:8000"
    streams: str = "127.0.0.1:8001"
    static_root: Path = Path("var/static")
    user: str = "www-data"
    workers: str = "auto"

    def places(self) -> dict[str, str]:
        values = asdict(self)
        values["static_root"] = str(Path(values["static_root"]).resolve())
        return {name.upper(): str(value) for name, value in values.items()}


def render(template: str, *, places: dict[str, str]) -> str:
    """``template`` with every ``${NAME}`` replaced by ``places[NAME]``; a name the template
    uses and ``places`` lacks, or one given and never used, is a ``ValueError``."""
    used = set(PLACE.findall(template))
    if used != set(places):
        raise ValueError(f"template places {sorted(used)} and values {sorted(places)} do not match")
    return PLACE.sub(lambda match: places[match.group(1)], template)


def nginx_binary() -> str | None:
    """The nginx to run: the one on the PATH, else Debian's; None when there is none."""
    found = shutil.which("nginx")
    if found is not None:
        return found
    return str(DEBIAN_NGINX) if DEBIAN_NGINX.exists() else None


def prepare(folder: Path, *, front: Front) -> list[str]:
    """Write ``folder/nginx.conf`` for ``front`` and make the folders it writes in (``logs``,
    ``temp``); returns the arguments that start nginx on it (add ``-g "daemon off;"`` to keep
    it in the foreground)."""
    folder = folder.resolve()
    for sub in ("logs", "temp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    text = render(TEMPLATE.read_text(), places=front.places())
    (folder / "nginx.conf").write_text(text)
    binary = nginx_binary() or "nginx"
    return [binary, "-p", f"{folder}/", "-c", "nginx.conf", "-e", str(folder / "logs/error.log")]


def main(argv: list[str] | None = None) -> None:
    defaults = Front()
    parser = argparse.ArgumentParser(
        prog="python -m pente_site.front",
        description="Write the front server's nginx configuration into FOLDER.",
    )
    parser.add_argument("folder", type=Path, help="nginx's prefix: its configuration, logs, temp")
    parser.add_argument("--listen", default=defaults.listen, help="nginx's `listen` (80)")
    parser.add_argument("--server-name", default=defaults.server_name, help="`server_name` (_)")
    parser.add_argument("--web", default=defaults.web, help="gunicorn's address (its BIND)")
    parser.add_argument("--streams", default=defaults.streams, help="uvicorn's address")
    parser.add_argument(
        "--static-root", type=Path, default=defaults.static_root, help="STATIC_ROOT (var/static)"
    )
    parser.add_argument("--user", default=defaults.user, help="nginx's workers' user (www-data)")
    parser.add_argument("--workers", default=defaults.workers, help="worker processes (auto)")
    args = vars(parser.parse_args(argv))
    folder = args.pop("folder")
    command = prepare(folder, front=Front(**args))
    print(f"Wrote {folder / 'nginx.conf'}. Check it, then start nginx:")
    print("  " + " ".join(command))
    print(f"(`{' '.join(command)} -t` checks it; `-s reload` makes a running nginx read it again)")


if __name__ == "__main__":
    main()
