// Test-only: drives the official TypeScript MCP client against the API's /mcp for TestNpmClient.
//
//   MCP_URL=http://127.0.0.1:8080/mcp MCP_TOKEN=<run token> node client.mjs '<ops JSON>'
//
// ops is a list of {"tool": name, "args": {...}}, {"list": "tools"} or {"read": uri}. It connects
// (initialize), runs them in order and prints one JSON line: {"server": ..., "results": [...]}, each
// result {"isError", "text", "structured"} for a tool, {"names"} for a list, {"text"} for a read.
// A failure to connect prints {"connectError": message, "status": HTTP status} and exits 0, so the test can read it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.env.MCP_URL);
const ops = JSON.parse(process.argv[2] ?? "[]");
const transport = new StreamableHTTPClientTransport(url, {
  requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` } },
});
const client = new Client({ name: "npm-test-client", version: "1.0.0" });
try {
  await client.connect(transport);
} catch (err) {
  console.log(JSON.stringify({ connectError: String(err?.message ?? err), status: err?.code ?? null }));
  process.exit(0);
}
const results = [];
for (const op of ops) {
  if (op.list === "tools") {
    const { tools } = await client.listTools();
    results.push({ names: tools.map((t) => t.name).sort(), described: tools.every((t) => (t.description ?? "").length > 80) });
  } else if (op.read) {
    const res = await client.readResource({ uri: op.read });
    results.push({ text: res.contents[0]?.text ?? "" });
  } else {
    const res = await client.callTool({ name: op.tool, arguments: op.args ?? {} });
    results.push({
      isError: res.isError === true,
      text: (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n"),
      structured: res.structuredContent ?? null,
    });
  }
}
console.log(JSON.stringify({ server: client.getServerVersion()?.name, results }));
await client.close();
