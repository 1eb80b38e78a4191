"""Talking to an engine over stdin/stdout as a client does: one home for the
latency tools' `send` and `until`."""
import subprocess


class Engine:
    """A running engine process, spoken to line by line."""

    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The first line starting with `prefix` (the lines before it are skipped)."""
        while True:
            line = self.p.stdout.readline()
            assert line, "engine exited"
            if line.startswith(prefix):
                return line

    def quit(self):
        self.send("quit")
        self.p.wait()
