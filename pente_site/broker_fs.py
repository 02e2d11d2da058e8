"""The embedded default's Celery broker: kombu's filesystem transport, with each message written
whole before a worker can see it.

kombu writes a message file in place (open, lock, write). A worker that lists the folder in
between moves the file away and reads it empty, fails to decode it and stops: the worker of
``manage.py serve`` was seen to die this way on its first message, and with it the computers'
moves, the timeouts and the pairings. Here a message is written under a name no queue matches
and then renamed into place (atomic within one folder), and a message that cannot be decoded
all the same is dropped with an error in the log instead of stopping the worker.

Selected by ``CELERY_BROKER_TRANSPORT`` when there is no Redis (``pente_site.settings``).
"""

from __future__ import annotations

import logging
import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

log = logging.getLogger(__name__)

#: Added to a message's file name while it is being written: no queue reads such a file.
PARTIAL = ".part"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` onto ``queue``: written under a partial name, then renamed."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + PARTIAL
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        """The next message of ``queue`` that decodes (kombu's ``Empty`` when none is left)."""
        while True:
            try:
                return super()._get(queue)
            except ValueError:  # not JSON: already taken off the queue, so the next one
                log.error("broker: dropped a message of queue %s that could not be read", queue)


class Transport(filesystem.Transport):
    Channel = Channel

    @property
    def default_connection_params(self):
        """No host: a folder is no server (kombu's default, ``localhost``, has it warn "No
        hostname was supplied" at every connection)."""
        return {"port": self.default_port}
