"""A whole agent for the open seat protocol (docs/bots.md), with nothing but the standard library and `websockets`:
it takes a seat of an online table through the seat's link, says in its speech whom it suspects, votes for the
player most suspected, shoots (once a night) or checks the first seat it may, and passes otherwise.

    python examples/seat_agent.py https://host/play/TOKEN
"""

import json
import sys
import urllib.parse
import urllib.request
import uuid
from collections import Counter

from websockets.sync.client import connect

url = urllib.parse.urlsplit(sys.argv[1])
token = url.path.rsplit("/", 1)[1]
site = f"{url.scheme}://{url.netloc}"
socket_url = f"{'wss' if url.scheme == 'https' else 'ws'}://{url.netloc}/ws/play"
ask = urllib.request.Request(f"{site}/api/play/me", headers={"X-Play-Token": token})
game_id = json.load(urllib.request.urlopen(ask))["game_id"]  # which game (and seat) the link opens
suspected: Counter[int] = Counter()  # seat -> how many claims named it ("I suspect", "N is lying", a black check)

with connect(socket_url, origin=site) as ws:
    ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
    spoke, shot, asked = set(), set(), None
    for raw in ws:
        m = json.loads(raw)
        if m["type"] == "claims":
            for c in m["claims"]:
                if c["kind"] in ("suspect", "lying") or c.get("color") == "black":
                    suspected[c["target"]] += 1
        if m["type"] not in ("state", "events"):
            continue
        v = m["view"]
        if v["over"]:
            print("the end:", v["banner"]["en"])
            break
        me = v["viewer"]
        if any(e.get("shooter") == me or me in e.get("shooters", ()) for e in m["events"]):  # its shot, or "all shoot"
            shot.add(v["day"])
        send = lambda kind, **f: ws.send(json.dumps({"type": kind, "game_id": game_id, "command_id": uuid.uuid4().hex, **f}))  # noqa: E731
        living = [s["seat"] for s in v["seats"] if s["alive"] and s["seat"] != me]
        moment = (v["step"], v["day"], v["seat"], v["round"])
        if v["seat"] == me and moment not in spoke and living:  # my speech begins: a suspicion
            spoke.add(moment)
            send("claim", claim={"kind": "suspect", "target": max(living, key=lambda s: suspected[s])})
        if (m["next_seq"], tuple(map(json.dumps, m["legal"]))) == asked:
            continue
        asked = (m["next_seq"], tuple(map(json.dumps, m["legal"])))
        votes = [c for c in m["legal"] if c["type"] == "vote"]
        acts = [c for c in m["legal"] if c["type"] == "check" or (c["type"] == "shoot" and v["day"] not in shot)]
        if votes and max(votes, key=lambda c: suspected[c["candidate"]]) is votes[0] and suspected[votes[0]["candidate"]]:
            send("command", command=votes[0], expected_seq=m["next_seq"])
        elif acts:  # one shot a night: a second one would make the night a miss
            if acts[0]["type"] == "shoot":
                shot.add(v["day"])
            send("command", command=acts[0], expected_seq=m["next_seq"])
        elif m["legal"] or v["seat"] == me:
            send("pass", seen=m["next_seq"])
