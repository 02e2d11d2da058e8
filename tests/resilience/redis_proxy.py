"""A Redis that can be switched off and on: a TCP relay to the real one on a port of its own.
Off, the port is closed (connections refused, open ones cut), as when Redis is stopped; on
again, the same port relays once more."""

from __future__ import annotations

import selectors
import socket
import threading


class SwitchableRedis:
    def __init__(self, *, target: tuple[str, int]) -> None:
        self.target = target
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._stopping = False
        self._selector = selectors.DefaultSelector()
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._wake_r, self._wake_w = socket.socketpair()
        self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._thread.start()

    # --- switching ----------------------------------------------------------------------

    def on(self) -> None:
        with self._lock:
            if self._listener is not None:
                return
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(64)
            listener.setblocking(False)
            self._listener = listener
        self._selector_call(
            lambda: self._selector.register(listener, selectors.EVENT_READ, "accept")
        )

    def off(self) -> None:
        def close_all() -> None:
            if self._listener is not None:
                self._selector.unregister(self._listener)
                self._listener.close()
                self._listener = None
            for pair in self._pairs:
                for sock in pair:
                    self._selector.unregister(sock)
                    sock.close()
            self._pairs.clear()

        self._selector_call(close_all)

    def close(self) -> None:
        self.off()
        self._stopping = True
        self._wake_w.send(b"x")
        self._thread.join(5)

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    # --- the relay thread ---------------------------------------------------------------

    def _selector_call(self, work) -> None:
        """Run ``work`` in the relay thread (the selector is its own) and wait for it."""
        done = threading.Event()
        self._calls = getattr(self, "_calls", [])
        self._calls.append((work, done))
        self._wake_w.send(b"x")
        assert done.wait(5)

    def _relay(self) -> None:
        while not self._stopping:
            for key, _mask in self._selector.select(timeout=1):
                if key.data == "wake":
                    key.fileobj.recv(64)
                    while getattr(self, "_calls", []):
                        work, done = self._calls.pop(0)
                        work()
                        done.set()
                elif key.data == "accept":
                    self._accept()
                else:
                    self._forward(key.fileobj, key.data)

    def _accept(self) -> None:
        try:
            client, _ = self._listener.accept()
        except (BlockingIOError, OSError):
            return
        try:
            upstream = socket.create_connection(self.target, timeout=2)
        except OSError:
            client.close()
            return
        pair = (client, upstream)
        self._pairs.append(pair)
        self._selector.register(client, selectors.EVENT_READ, (upstream, pair))
        self._selector.register(upstream, selectors.EVENT_READ, (client, pair))

    def _forward(self, source: socket.socket, data) -> None:
        destination, pair = data
        try:
            chunk = source.recv(65536)
            if chunk:
                destination.sendall(chunk)
                return
        except OSError:
            pass
        if pair in self._pairs:
            self._pairs.remove(pair)
            for sock in pair:
                self._selector.unregister(sock)
                sock.close()
