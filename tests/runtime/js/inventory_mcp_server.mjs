// A fake MCP server on stdio (newline-delimited JSON-RPC, no packages) whose one tool,
// `reserve_stock`, fails with a JSON-RPC error, as a server whose backend is down answers:
// the client's callTool rejects, which is what an MCP tool's failure handler sees.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const TOOL = {
  name: 'reserve_stock',
  description: 'Reserve the cart items in the warehouse.',
  inputSchema: { type: 'object', properties: { cartId: { type: 'string' } }, required: ['cartId'] },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return; // a notification
  if (method === 'initialize') {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: 'inventory', version: '1.0.0' } } });
  } else if (method === 'tools/list') {
    send({ id, result: { tools: [TOOL] } });
  } else if (method === 'tools/call') {
    setTimeout(() => send({ id, error: { code: -32603, message: 'inventory database unavailable' } }), 20);
  } else {
    send({ id, error: { code: -32601, message: `no method ${method}` } });
  }
});
