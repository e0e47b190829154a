"""Files to upload (a path, a binary file object or bytes) and files downloaded."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any, Union
from urllib.parse import unquote

import httpx

#: A file to upload: a path (its base name is the file name), a binary file object (its `name`, if any), or bytes.
FileInput = Union[str, "os.PathLike[str]", IO[bytes], bytes]

_UNNAMED = "file"


@dataclass(frozen=True)
class DownloadedFile:
    """A document's original file, as uploaded."""

    content: bytes
    file_name: str
    media_type: str


def read_file(file: FileInput, file_name: str | None = None) -> tuple[str, bytes]:
    """The file's name and bytes, read now so that a retry sends the same bytes again."""
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        with open(path, "rb") as handle:
            return file_name or os.path.basename(path) or _UNNAMED, handle.read()
    if isinstance(file, (bytes, bytearray, memoryview)):
        return file_name or _UNNAMED, bytes(file)
    content = file.read()
    if not isinstance(content, bytes):
        raise TypeError("a file object must be opened in binary mode ('rb')")
    named = getattr(file, "name", None)
    return file_name or (os.path.basename(named) if isinstance(named, str) and named else _UNNAMED), content


def form_fields(fields: Mapping[str, Any]) -> dict[str, str]:
    """The form's text fields that are set; `metadata` (a dict) as JSON text."""
    return {name: value if isinstance(value, str) else json.dumps(value) for name, value in fields.items() if value is not None}


def downloaded(response: httpx.Response) -> DownloadedFile:
    media_type = response.headers.get("content-type", "application/octet-stream").split(";")[0].strip()
    return DownloadedFile(content=response.content, file_name=_file_name(response.headers.get("content-disposition")), media_type=media_type)


def _file_name(disposition: str | None) -> str:
    """The name in Content-Disposition: `filename*` (UTF-8) first, then `filename`."""
    if not disposition:
        return _UNNAMED
    extended = re.search(r"filename\*\s*=\s*([^']*)'[^']*'([^;]+)", disposition, re.IGNORECASE)
    if extended:
        return unquote(extended.group(2).strip(), encoding=extended.group(1) or "utf-8")
    plain = re.search(r'filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))', disposition, re.IGNORECASE)
    if not plain:
        return _UNNAMED
    return re.sub(r"\\(.)", r"\1", plain.group(1)) if plain.group(1) is not None else plain.group(2).strip()
