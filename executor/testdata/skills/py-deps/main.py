import json
import sys

json.dump({"prefix": sys.prefix, "base_prefix": sys.base_prefix}, sys.stdout)
