# Drives a program in a pseudo-terminal (Python's `pty`), for test/terminal.test.ts: waits for text
# and types.
#
# argv[1] is JSON: {"argv": [...], "env": {...}, "cwd": "...", "timeout": seconds,
#                   "steps": [["expect", text] | ["send", text], ...]}
# "expect" waits until text appears after the previous match; "send" types text.
# After the steps it waits for the program to end, then prints JSON on stdout:
# {"transcript": everything the terminal showed, "code": exit code or null,
#  "signal": signal number or null, "failed": why a step failed, or null,
#  "modesKept": whether the terminal's modes (termios) at the end are those at the start}

import json, os, pty, select, signal, sys, termios, time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:                                   # the child: stdin, stdout, stderr are the pty
    os.chdir(spec.get("cwd", "."))
    os.environ.update(spec.get("env", {}))
    os.execvp(spec["argv"][0], spec["argv"])

modes = termios.tcgetattr(fd)                  # the master reports the terminal's modes
deadline = time.monotonic() + spec.get("timeout", 20)
seen, mark, failed, closed = b"", 0, None, False

def read_some():
    """Read what the terminal shows next; False when the time is up or the program closed it."""
    global seen, closed
    left = deadline - time.monotonic()
    if left <= 0 or closed:
        return False
    ready, _, _ = select.select([fd], [], [], min(left, 0.5))
    if ready:
        try:
            data = os.read(fd, 4096)
        except OSError:                        # EIO: every process let go of the terminal
            data = b""
        if not data:
            closed = True
        seen += data
    return True

for kind, text in spec["steps"]:
    if kind == "send":
        os.write(fd, text.encode())
        continue
    want = text.encode()
    while want not in seen[mark:]:
        if not read_some():
            failed = f"timed out waiting for {text!r}" if not closed else f"the program ended before {text!r}"
            break
    if failed:
        break
    mark = seen.index(want, mark) + len(want)

while not closed and read_some():              # read to the end
    pass
code = sig = None
if not closed:                                 # still running: stop it
    os.kill(pid, signal.SIGKILL)
    failed = failed or "the program did not end"
_, status = os.waitpid(pid, 0)
kept = termios.tcgetattr(fd) == modes
if os.WIFEXITED(status):
    code = os.WEXITSTATUS(status)
elif os.WIFSIGNALED(status):
    sig = os.WTERMSIG(status)
json.dump({"transcript": seen.decode("utf-8", "replace"), "code": code, "signal": sig, "failed": failed,
           "modesKept": kept},
          sys.stdout)
