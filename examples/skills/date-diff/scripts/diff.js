// Date difference: JSON on stdin, JSON on stdout (the skillkit protocol).
"use strict";

const DAY = 24 * 60 * 60 * 1000;
const NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function parse(field, text) {
  const t = Date.parse(text + "T00:00:00Z");
  if (Number.isNaN(t)) throw new Error(`${field}: ${JSON.stringify(text)} is not a date`);
  return t;
}

function main(input) {
  const from = parse("from", input.from);
  const to = parse("to", input.to);
  let days = Math.round((to - from) / DAY);
  if (input.include_end) days += Math.sign(days) || 1;
  const step = days < 0 ? -1 : 1;
  let weekdays = 0;
  for (let i = 0; i !== days; i += step) {
    const wd = new Date(from + i * DAY).getUTCDay();
    if (wd !== 0 && wd !== 6) weekdays += step;
  }
  return {
    days,
    weeks: Math.trunc(days / 7),
    weekdays,
    from_weekday: NAMES[new Date(from).getUTCDay()],
    to_weekday: NAMES[new Date(to).getUTCDay()],
  };
}

let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (text += chunk));
process.stdin.on("end", () => {
  try {
    process.stdout.write(JSON.stringify(main(JSON.parse(text))));
  } catch (err) {
    process.stderr.write(err.message + "\n");
    process.exitCode = 1;
  }
});
