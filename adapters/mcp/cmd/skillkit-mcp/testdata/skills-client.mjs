// A host of the Skills extension written with the official TypeScript MCP
// SDK v2 (@modelcontextprotocol/client and its SkillsClient). It starts the
// server command it is given, lists every skill (SkillsClient.list fails
// the whole listing when one entry is invalid) and reads and verifies every
// listed skill's SKILL.md. It prints {"listed": N, "read": N, "names": [...]};
// any failure exits non-zero.
//
// Usage: node skills-client.mjs COMMAND [ARG...]
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SkillsClient, SKILLS_EXTENSION_ID } from "@modelcontextprotocol/client/ext/skills";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "skillkit-skills-test", version: "1.0.0" }, { capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } } });
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" }));
const skills = new SkillsClient(client);
if (!skills.supported) throw new Error("the server does not declare the Skills extension");
const { skills: entries } = await skills.list();
let read = 0;
for (const entry of entries) {
  await skills.read(entry);
  read++;
}
console.log(JSON.stringify({ listed: entries.length, read, names: entries.map((e) => e.frontmatter?.name) }));
await client.close();
