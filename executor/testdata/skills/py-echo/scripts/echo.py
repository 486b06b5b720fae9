import json
import os
import sys

data = json.load(sys.stdin)
print("echoing", data["message"][:20], file=sys.stderr)
json.dump(
    {
        "message": data["message"] * data["count"],
        "count": data["count"],
        "input": data,
        "env": {name: os.environ.get(name) for name in data.get("env", [])},
        "cwd": os.getcwd(),
    },
    sys.stdout,
)
