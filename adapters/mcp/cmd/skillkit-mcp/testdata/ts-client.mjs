// A client of skillkit-mcp written with the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk). It starts the server command it is given,
// checks that the server declares the Skills extension, pages through
// skills/list, calls skills/get for each skill, reads every file of every
// skill with resources/read and checks each against its digest and size.
// It prints a JSON summary; any failure exits non-zero.
//
// Usage: node ts-client.mjs COMMAND [ARG...]
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";

const EXTENSION = "io.modelcontextprotocol/skills";

function fail(msg) {
  throw new Error(msg);
}

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "skillkit-ts-test", version: "1.0.0" }, { capabilities: { extensions: { [EXTENSION]: {} } } });
await client.connect(transport);

const caps = client.getServerCapabilities();
if (!caps?.extensions?.[EXTENSION]) fail(`no ${EXTENSION} in the capabilities: ${JSON.stringify(caps)}`);
if (!caps.resources) fail("the resources capability is missing");

const summary = { extension: true, skills: [] };
let cursor;
const entries = [];
for (let page = 0; ; page++) {
  if (page > 100) fail("skills/list does not end");
  const res = await client.request({ method: "skills/list", params: cursor ? { cursor } : {} }, ResultSchema);
  if (res.resultType !== "complete") fail(`skills/list resultType ${res.resultType}`);
  if (typeof res.ttlMs !== "number" || typeof res.cacheScope !== "string") fail("skills/list without ttlMs or cacheScope");
  entries.push(...res.skills);
  if (!res.nextCursor) break;
  cursor = res.nextCursor;
}

for (const listed of entries) {
  const got = await client.request({ method: "skills/get", params: { uri: listed.uri } }, ResultSchema);
  if (got.resultType !== "complete") fail(`skills/get resultType ${got.resultType}`);
  const skill = got.skill;
  if (JSON.stringify(skill) !== JSON.stringify(listed)) fail(`skills/get of ${listed.uri} differs from its listing`);
  if (!Array.isArray(skill.resources)) fail(`${skill.uri}: resources is not a list`);
  const files = [];
  for (const r of skill.resources) {
    const read = await client.readResource({ uri: r.uri });
    const c = read.contents.find((c) => c.uri === r.uri) ?? fail(`${r.uri}: no content`);
    const bytes = c.text !== undefined ? Buffer.from(c.text, "utf8") : Buffer.from(c.blob ?? "", "base64");
    const digest = "sha256:" + createHash("sha256").update(bytes).digest("hex");
    if (digest !== r.digest) fail(`${r.uri}: digest ${digest}, listed ${r.digest}`);
    if (bytes.length !== r.size) fail(`${r.uri}: ${bytes.length} bytes, listed ${r.size}`);
    if (r.uri === skill.uri) {
      if (c.mimeType !== "text/markdown") fail(`${r.uri}: mimeType ${c.mimeType}`);
      const text = bytes.toString("utf8");
      if (!text.startsWith("---\n") || !text.includes(`name: ${skill.frontmatter.name}\n`)) fail(`${r.uri}: the frontmatter does not name ${skill.frontmatter.name}`);
    }
    files.push(r.uri.slice(skill.uri.length - "SKILL.md".length));
  }
  summary.skills.push({ uri: skill.uri, name: skill.frontmatter.name, description: skill.frontmatter.description, files });
}

// A URI no skill is served at is refused with -32602.
try {
  await client.request({ method: "skills/get", params: { uri: "skill://no-such-skill/SKILL.md" } }, ResultSchema);
  fail("skills/get of an unknown skill succeeded");
} catch (e) {
  if (e.code !== -32602) throw e;
}
summary.unknownSkillCode = -32602;

await client.close();
console.log(JSON.stringify(summary));
