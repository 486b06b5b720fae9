const pad = require("left-pad");
process.stdout.write(JSON.stringify({padded: pad("1", 3, "0")}));
