"""Writes ConfigMaps to an API server as fast as it acknowledges them, recording each
acknowledged write (name and resourceVersion) in a file flushed line by line, until the server
stops answering. Standard library only, so that the record is never behind the acknowledgements.

Usage: /usr/bin/python3 durability_writer.py URL ACK_FILE [CA_FILE TOKEN]
(CA_FILE and TOKEN for an https:// URL: the server's CA and the administrator's bearer token.)
"""
import http.client
import json
import ssl
import sys
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
acks = open(sys.argv[2], "w", buffering=1)
headers = {"Content-Type": "application/json"}
if url.scheme == "https":
    context = ssl.create_default_context(cafile=sys.argv[3])
    conn = http.client.HTTPSConnection(url.hostname, url.port, timeout=10, context=context)
    headers["Authorization"] = "Bearer " + sys.argv[4]
else:
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
i = 0
while True:
    name = "dur-%06d" % i
    body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap",
                       "metadata": {"name": name}, "data": {"i": str(i)}})
    try:
        conn.request("POST", "/api/v1/namespaces/default/configmaps", body, headers)
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
