#!/usr/bin/env python3
"""Records what a real llama-server answers, as test data for tst_serve's replay of it.

A proxy: listens on --port, forwards each request to the llama-server at --to, and appends the exchange
(method, path, request body as JSON, status, content type, response body) to --out, once per request,
compressed as Qt's qCompress does (the answers repeat themselves: 450 KB of JSON is 30 KB). Responses are read
whole before they are passed on, streams included. Used as README.md in this folder says; needs only
Python's standard library.
"""
import argparse
import http.client
import http.server
import json
import struct
import zlib

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--to", type=int, required=True)
parser.add_argument("--out", required=True)
args = parser.parse_args()
exchanges = []


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        upstream = http.client.HTTPConnection("127.0.0.1", args.to, timeout=300)
        upstream.request(self.command, self.path, body, {"Content-Type": "application/json"})
        answer = upstream.getresponse()
        data = answer.read()
        kind = answer.getheader("Content-Type", "application/json")
        request = json.loads(body) if body else None
        if not any(e["method"] == self.command and e["path"] == self.path and e["request"] == request
                   for e in exchanges):  # the first answer to a request is the one replayed
          exchanges.append({
            "method": self.command,
            "path": self.path,
            "request": request,
            "status": answer.status,
            "content_type": kind,
            "response": data.decode("utf-8"),
          })
        text = (json.dumps(exchanges, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
        with open(args.out, "wb") as out:  # as Qt's qCompress writes it: the length, then zlib
            out.write(struct.pack(">I", len(text)) + zlib.compress(text, 9))
        self.send_response(answer.status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = forward
    do_POST = forward

    def log_message(self, *unused):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Proxy).serve_forever()
