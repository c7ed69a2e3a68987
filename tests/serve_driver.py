"""Drives `interview serve` as an agent runtime in another language would: one request per line
on its stdin, one result per line from its stdout. The person answers on the terminal this
script runs in. Usage: serve_driver.py INTERVIEW OUT [serve options] < requests (one per line)."""

import subprocess
import sys

interview, out = sys.argv[1], sys.argv[2]
requests = [line for line in sys.stdin.read().splitlines() if line.strip()]
serve = subprocess.Popen([interview, "serve", *sys.argv[3:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
with open(out, "w") as results:
    for request in requests:
        serve.stdin.write(request + "\n")
        serve.stdin.flush()
        reply = serve.stdout.readline()
        if not reply:
            break
        results.write(reply)
        results.flush()
serve.stdin.close()
results_left = serve.stdout.read()
print(f"SERVE EXIT {serve.wait()} LEFT {len(results_left)}")
