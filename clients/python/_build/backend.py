"""A PEP 517 build backend that needs nothing but the standard library: it zips headtrack_client/ into a
wheel. setuptools or flit would have to be downloaded into pip's isolated build environment, which fails on a
machine without a package index; this package is pure Python with no data files, so a wheel is just a zip."""
import base64, hashlib, os, zipfile

NAME, DIST, VERSION = "headtrack-client", "headtrack_client", "1.0.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "headtrack_client"
TAG = "py3-none-any"


def _metadata():
    summary = "Client for headtrack's event stream: gestures, yes/no questions, head yaw"
    readme = os.path.join(HERE, "README.md")
    body = open(readme, encoding="utf-8").read() if os.path.exists(readme) else ""
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\nSummary: {summary}\n"
            f"Requires-Python: >=3.9\nDescription-Content-Type: text/markdown\n\n{body}")


def _wheel_file():
    return f"Wheel-Version: 1.0\nGenerator: headtrack _build/backend.py\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _files():
    """(name in the wheel, bytes) for every module of the package, sorted so a build is reproducible."""
    root = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") or name == "py.typed":
            with open(os.path.join(root, name), "rb") as f:
                yield f"{PACKAGE}/{name}", f.read()


def _write_wheel(directory, editable=False):
    info = f"{DIST}-{VERSION}.dist-info"
    wheel_name = f"{DIST}-{VERSION}-{TAG}.whl"
    files = [(f"{DIST}.pth", (HERE + "\n").encode())] if editable else list(_files())
    files += [(f"{info}/METADATA", _metadata().encode()), (f"{info}/WHEEL", _wheel_file().encode())]
    record = [_record_line(n, d) for n, d in files] + [f"{info}/RECORD,,"]
    with zipfile.ZipFile(os.path.join(directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files:
            z.writestr(zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0)), data)
        z.writestr(zipfile.ZipInfo(f"{info}/RECORD", date_time=(1980, 1, 1, 0, 0, 0)), "\n".join(record) + "\n")
    return wheel_name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=True)
