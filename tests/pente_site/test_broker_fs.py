"""The embedded default's broker (``pente_site.broker_fs``): a message file appears under its
queue's name only once it is whole, and a message that cannot be read is dropped instead of
stopping the worker."""

from __future__ import annotations

import json
import os
from queue import Empty

import pytest
from kombu import Connection

from pente_site import broker_fs


@pytest.fixture
def channel(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (tmp_path / "control").mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path / "control"),
        "store_processed": False,
    }
    with Connection(transport=broker_fs.Transport, transport_options=options) as conn:
        chan = conn.channel()
        chan.folder = folder
        yield chan


def test_a_message_put_is_got_back_whole(channel):
    channel._put("celery", {"body": "x" * 10_000})
    assert channel._get("celery") == {"body": "x" * 10_000}


def test_a_message_appears_under_its_queues_name_only_once_written(channel, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        # at the rename: nothing a reader would take yet, and the partial file is complete
        seen.append(sorted(p.name for p in channel.folder.iterdir()))
        with open(src, "rb") as f:
            assert json.loads(f.read()) == {"n": 1}
        real_replace(src, dst)

    monkeypatch.setattr(broker_fs.os, "replace", replace)
    channel._put("celery", {"n": 1})
    assert len(seen) == 1 and all(name.endswith(broker_fs.PARTIAL) for name in seen[0])
    assert [p.name.endswith(".celery.msg") for p in channel.folder.iterdir()] == [True]


def test_a_file_still_being_written_is_not_read(channel):
    (channel.folder / f"1_a.celery.msg{broker_fs.PARTIAL}").write_text('{"n": 1}')
    with pytest.raises(Empty):
        channel._get("celery")


def test_an_unreadable_message_is_dropped_and_the_next_one_read(channel, monkeypatch):
    # the log as the module writes it (other tests, Celery's among them, reconfigure logging)
    errors: list[str] = []
    monkeypatch.setattr(broker_fs.log, "error", lambda text, *args: errors.append(text % args))
    (channel.folder / "0_a.celery.msg").write_bytes(b"")  # a torn write, first in the queue
    channel._put("celery", {"n": 2})
    assert channel._get("celery") == {"n": 2}
    assert any("could not be read" in line for line in errors)
    assert list(channel.folder.iterdir()) == []
    assert list(channel.folder.iterdir()) == []
