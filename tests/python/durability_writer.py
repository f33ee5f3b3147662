"""Writes ConfigMaps to an API server as fast as it acknowledges them, recording each
acknowledged write (name and resourceVersion) in a file flushed line by line, until the server
stops answering. Standard library only, so that the record is never behind the acknowledgements.

Usage: /usr/bin/python3 durability_writer.py URL ACK_FILE
"""
import http.client
import json
import sys
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
acks = open(sys.argv[2], "w", buffering=1)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
i = 0
while True:
    name = "dur-%06d" % i
    body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap",
                       "metadata": {"name": name}, "data": {"i": str(i)}})
    try:
        conn.request("POST", "/api/v1/namespaces/default/configmaps", body,
                     {"Content-Type": "application/json"})
        response = conn.getresponse()
        payload = response.read()
    except (OSError, http.client.HTTPException):
        break
    if response.status != 201:
        print("unexpected status %d: %s" % (response.status, payload[:200]), file=sys.stderr)
        sys.exit(1)
    rv = json.loads(payload)["metadata"]["resourceVersion"]
    acks.write("%s %s\n" % (name, rv))
    i += 1
