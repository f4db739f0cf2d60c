"""Fields of /proc/PID/status for the bench helpers (they run as `python3 bench/x.py`, so
this folder is on their import path)."""


def status_value(pid, key):
    """The number after `key:` (kB for the Vm fields), e.g. VmRSS or Threads."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} for pid {pid}")


def rss_kib(pid):
    return status_value(pid, "VmRSS")
